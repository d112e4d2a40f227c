package io.cairn.transport.sim;

import io.cairn.scheduler.DeterministicScheduler;
import io.cairn.scheduler.SimClock;
import io.cairn.transport.MessagingService;
import io.cairn.transport.MessagingServiceTestKit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** The messaging contract on the simulated network, with light drop-free jitter. */
class SimMessagingServiceTest extends MessagingServiceTestKit {

  private static final long SEED = 7L;
  private static final int STEPS_MAX = 1_000_000;

  private final DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
  private final SimNetwork network =
      new SimNetwork(scheduler, SEED).maxFrameSizeBytes(MAX_FRAME_SIZE_BYTES);

  @Override
  protected List<MessagingService> createMembers(int count) {
    List<MessagingService> members = new ArrayList<>();
    for (int nodeId = 0; nodeId < count; nodeId++) {
      members.add(network.endpoint(nodeId));
    }
    return members;
  }

  @Override
  protected Executor handlerExecutor() {
    return scheduler.executor();
  }

  @Override
  protected <T> T await(CompletableFuture<T> future) {
    return SimTesting.runUntilDone(scheduler, future, STEPS_MAX, "seed " + SEED);
  }

  @Override
  protected void afterMembersClosed() {
    scheduler.close();
  }
}
