package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.scheduler.SimClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Once the state a view feeds is stale, the view reads, writes and notifies nothing more. */
final class FencedLogStreamTest {

  private final InMemoryLogStream log = new InMemoryLogStream(1, new SimClock(0));
  private final AtomicBoolean live = new AtomicBoolean(true);
  private final FencedLogStream view = new FencedLogStream(log, live::get);

  @Test
  void shouldPassEverythingThroughWhileLive() {
    List<Long> commits = new ArrayList<>();
    view.addCommitListener(commits::add);
    LogStreamWriter leaderWriter = view.newLeaderWriter();

    assertThat(leaderWriter.tryWrite(account("a"))).isInstanceOf(WriteResult.Written.class);

    try (LogStreamReader reader = view.newReader()) {
      assertThat(reader.hasNext()).isTrue();
      assertThat(reader.next().position()).isEqualTo(1);
    }
    assertThat(commits).containsExactly(1L);
    assertThat(view.commitPosition()).isEqualTo(1);
  }

  @Test
  void shouldReadWriteAndNotifyNothingOnceStale() {
    List<Long> commits = new ArrayList<>();
    view.addCommitListener(commits::add);
    LogStreamWriter leaderWriter = view.newLeaderWriter();
    LogStreamReader reader = view.newReader();
    log.writer().tryWrite(account("a"));

    live.set(false);
    log.writer().tryWrite(account("b"));

    assertThat(reader.hasNext()).isFalse();
    assertThat(leaderWriter.tryWrite(account("c"))).isInstanceOf(WriteResult.NotLeader.class);
    assertThat(commits).containsExactly(1L);
    assertThat(log.committedRecords()).hasSize(2);
    reader.close();
  }

  @Test
  void shouldRemoveItsListenersWhenClosedAndLeaveTheLogOpen() {
    List<Long> commits = new ArrayList<>();
    view.addCommitListener(commits::add);

    view.close();
    log.writer().tryWrite(account("a"));

    assertThat(commits).isEmpty();
    assertThat(log.committedRecords()).hasSize(1);
  }

  private static io.cairn.protocol.Record account(String id) {
    return command(AccountIntent.CREATE, new AccountValue(id, 0), -1);
  }
}
