package io.cairn.backup.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.Digest128;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.cairn.streamprocessor.StreamProcessorTestKit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention's deletions through the partition's log on a real stream processor: {@code
 * DELETE_BACKUP} makes a deletion pending in the state (on every replica, surviving a restart) and
 * tells the leader, {@code CONFIRM_DELETION} ends it; neither changes the state digest.
 */
final class BackupDeletionRecordsTest {

  private static final int PARTITION = StreamProcessorTestKit.PARTITION_ID;

  @TempDir Path directory;

  private final List<Long> deletionsTold = new ArrayList<>();
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    List<ColumnFamilyDefinition> families = new ArrayList<>(BackupColumnFamily.all());
    families.addAll(TestBalances.FAMILIES);
    CheckpointListener listener =
        new CheckpointListener() {
          @Override
          public void onCheckpointCreated(Checkpoint checkpoint) {}

          @Override
          public void onDeletionRequested(long backupId) {
            deletionsTold.add(backupId);
          }
        };
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(families)
            .processors(
                (db, builder) -> {
                  CheckpointRecords.register(
                      PARTITION,
                      db,
                      builder,
                      listener,
                      new BackupMetrics(new SimpleMeterRegistry(), PARTITION, new SimClock(0)));
                  TestBalances.register(db, builder, 0);
                })
            .build();
    kit.startLeader();
  }

  @AfterEach
  void close() {
    kit.close();
  }

  @Test
  void shouldKeepADeletionPendingUntilConfirmedWithoutTouchingTheDigest() {
    checkpoint(3);
    checkpoint(5);
    Digest128 before = kit.db().stateDigest().total();

    Record deleting = first(kit.writeCommand(CheckpointIntent.DELETE_BACKUP, value(3)));

    assertThat(deleting.metadata().intent()).isEqualTo(CheckpointIntent.DELETING_BACKUP);
    assertThat(pending()).containsExactly(3L);
    assertThat(deletionsTold).containsExactly(3L);
    assertThat(kit.db().stateDigest().total()).isEqualTo(before);

    // asked again (a lost answer): the same event, still one pending deletion
    first(kit.writeCommand(CheckpointIntent.DELETE_BACKUP, value(3)));
    assertThat(pending()).containsExactly(3L);

    Record deleted = first(kit.writeCommand(CheckpointIntent.CONFIRM_DELETION, value(3)));
    assertThat(deleted.metadata().intent()).isEqualTo(CheckpointIntent.DELETED_BACKUP);
    assertThat(pending()).isEmpty();
    assertThat(kit.db().stateDigest().total()).isEqualTo(before);

    // a confirmation written twice is rejected and changes nothing
    Record again = first(kit.writeCommand(CheckpointIntent.CONFIRM_DELETION, value(3)));
    assertThat(again.metadata().recordType()).isEqualTo(RecordType.REJECTION);
    assertThat(again.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void shouldNeverDeleteTheLatestCheckpointsBackupNorAnIdBelowOne() {
    checkpoint(4);

    for (long id : new long[] {4, 9, 0}) {
      Record answer = first(kit.writeCommand(CheckpointIntent.DELETE_BACKUP, value(id)));
      assertThat(answer.metadata().recordType()).as("id %d", id).isEqualTo(RecordType.REJECTION);
      assertThat(answer.metadata().rejectionType()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    }
    assertThat(pending()).isEmpty();
    assertThat(deletionsTold).isEmpty();
  }

  @Test
  void shouldKeepAPendingDeletionAcrossARestartSoTheNextLeaderFinishesIt() {
    checkpoint(2);
    checkpoint(6);
    first(kit.writeCommand(CheckpointIntent.DELETE_BACKUP, value(2)));

    // the leader goes away before confirming; the state replayed from the log still has it
    kit.leader().stop();
    kit.leader().discardState();
    kit.leader().start(StreamProcessorMode.LEADER);
    kit.runUntilIdle();

    assertThat(pending()).containsExactly(2L);
  }

  private List<Long> pending() {
    return CheckpointState.of(kit.db()).pendingDeletions();
  }

  private Record first(long commandPosition) {
    kit.runUntilIdle();
    return kit.followUps(commandPosition).get(0);
  }

  private void checkpoint(long id) {
    Record created = first(kit.writeCommand(CheckpointIntent.CREATE, value(id)));
    assertThat(created.metadata().intent()).isEqualTo(CheckpointIntent.CREATED);
  }

  private static CheckpointValue value(long id) {
    return new CheckpointValue(id, -1, -1);
  }
}
