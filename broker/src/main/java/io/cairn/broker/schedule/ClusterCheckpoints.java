package io.cairn.broker.schedule;

import io.cairn.backup.schedule.CheckpointTaker;
import io.cairn.backup.schedule.TakeOutcome;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Takes a checkpoint on every partition from a broker (and asks every partition to delete a backup,
 * for retention), the way the gateway's {@code TakeBackup} does: {@code CHECKPOINT CREATE(id)}
 * through {@code cairn-command} to each partition's leader as {@link LeaderDirectory} knows it, a
 * partition this broker leads through its own handler. The answers decide the {@link TakeOutcome}:
 * a partition not reached, not led, or refusing makes it FAILED (a {@code NOT_LEADER} answer's hint
 * is recorded for the retry); else a higher id anywhere SUPERSEDED; else TAKEN if any partition
 * created it, ALREADY_TAKEN if all had it.
 */
public final class ClusterCheckpoints implements CheckpointTaker {

  private final int nodeId;
  private final int partitionCount;
  private final LeaderDirectory leaders;
  private final MessagingService messaging;
  private final MessagingService.RequestHandler localCommands;
  private final Duration requestTimeout;

  /**
   * @param localCommands this broker's {@code cairn-command} handler
   * @param requestTimeout how long another broker's answer is awaited
   */
  public ClusterCheckpoints(
      int nodeId,
      int partitionCount,
      LeaderDirectory leaders,
      MessagingService messaging,
      MessagingService.RequestHandler localCommands,
      Duration requestTimeout) {
    this.nodeId = nodeId;
    this.partitionCount = partitionCount;
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.messaging = Objects.requireNonNull(messaging, "messaging");
    this.localCommands = Objects.requireNonNull(localCommands, "localCommands");
    this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
  }

  @Override
  public CompletableFuture<TakeOutcome> take(long checkpointId) {
    return askAll(CheckpointIntent.CREATE, checkpointId)
        .thenApply(answers -> decide(checkpointId, answers));
  }

  /**
   * Writes {@code CHECKPOINT MARK(id)} to every partition's leader: a marker, decided as {@link
   * #take} decides.
   */
  public CompletableFuture<TakeOutcome> mark(long checkpointId) {
    return askAll(CheckpointIntent.MARK, checkpointId)
        .thenApply(answers -> decide(checkpointId, answers));
  }

  /**
   * Writes {@code CHECKPOINT DELETE_BACKUP(id)} to every partition's leader (retention); completes
   * with what failed, or an empty string when every partition accepted the deletion.
   */
  public CompletableFuture<String> deleteBackup(long backupId) {
    return askAll(CheckpointIntent.DELETE_BACKUP, backupId)
        .thenApply(
            answers ->
                String.join(
                    "; ", answers.stream().map(Answer::failure).filter(Objects::nonNull).toList()));
  }

  private CompletableFuture<List<Answer>> askAll(CheckpointIntent intent, long checkpointId) {
    List<CompletableFuture<Answer>> answers = new ArrayList<>();
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      answers.add(ask(partitionId, intent, checkpointId));
    }
    return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .thenApply(ignored -> answers.stream().map(CompletableFuture::join).toList());
  }

  /** One partition's answer: the checkpoint id it holds and whether it created it, or a failure. */
  private record Answer(int partitionId, boolean created, long checkpointId, String failure) {}

  private CompletableFuture<Answer> ask(
      int partitionId, CheckpointIntent intent, long checkpointId) {
    int leader = leaders.leaderOf(partitionId);
    if (leader < 0) {
      return CompletableFuture.completedFuture(
          failure(partitionId, "no leader known to node " + nodeId));
    }
    Record command =
        new Record(
            RecordMetadata.builder().command(intent).build(),
            new CheckpointValue(
                checkpointId, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
    byte[] payload = CommandCodec.encodeRequest(new CommandRequest(partitionId, command));
    CompletableFuture<byte[]> response;
    try {
      response =
          leader == nodeId
              ? localCommands.handle(nodeId, payload)
              : messaging.sendAndReceive(
                  leader, ApiDescriptor.TYPE_COMMAND, payload, requestTimeout);
    } catch (RuntimeException e) {
      response = CompletableFuture.failedFuture(e);
    }
    return response.handle(
        (bytes, error) ->
            error != null
                ? failure(
                    partitionId,
                    "node " + leader + " did not answer: " + Futures.unwrap(error).getMessage())
                : answer(partitionId, leader, bytes));
  }

  private Answer answer(int partitionId, int leader, byte[] bytes) {
    ApiResponse<Record> response;
    try {
      response = CommandCodec.decodeResponse(bytes);
    } catch (ProtocolException e) {
      return failure(partitionId, "node " + leader + " answered undecodably: " + e.getMessage());
    }
    if (response instanceof ApiResponse.Failure<Record> refused) {
      if (refused.leaderNodeId() >= 0) {
        leaders.hint(partitionId, refused.leaderNodeId());
      }
      return failure(
          partitionId, refused.status() + " from node " + leader + ": " + refused.reason());
    }
    Record record = ((ApiResponse.Ok<Record>) response).body();
    if (record.metadata().recordType() == RecordType.REJECTION
        || !(record.value() instanceof CheckpointValue checkpoint)) {
      return failure(
          partitionId,
          "node "
              + leader
              + " answered "
              + record.metadata().recordType()
              + " "
              + record.metadata().valueType()
              + " "
              + record.metadata().intent().name()
              + " "
              + record.metadata().rejectionReason());
    }
    return new Answer(
        partitionId,
        record.metadata().intent() == CheckpointIntent.CREATED,
        checkpoint.checkpointId(),
        null);
  }

  private static Answer failure(int partitionId, String why) {
    return new Answer(partitionId, false, -1, "partition " + partitionId + ": " + why);
  }

  private static TakeOutcome decide(long checkpointId, List<Answer> answers) {
    List<String> failures = answers.stream().map(Answer::failure).filter(Objects::nonNull).toList();
    if (!failures.isEmpty()) {
      return TakeOutcome.failed(checkpointId, String.join("; ", failures));
    }
    long highest = answers.stream().mapToLong(Answer::checkpointId).max().orElse(checkpointId);
    if (highest > checkpointId) {
      return TakeOutcome.superseded(highest);
    }
    return answers.stream().anyMatch(Answer::created)
        ? TakeOutcome.taken(checkpointId)
        : TakeOutcome.alreadyTaken(checkpointId);
  }
}
