package io.cairn.backup.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointOrigin;
import io.cairn.backup.CheckpointRecords;
import io.cairn.backup.CheckpointState;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.scheduler.SimClock;
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
 * {@code CHECKPOINT MARK} on a real stream processor: a checkpoint like {@code CREATE}'s, of which
 * the listener learns that it is a marker; a checkpoint taken through a stamp is told as stamped,
 * and the late request for it says what it was meant to be.
 */
final class MarkerRecordsTest {

  private static final int PARTITION = StreamProcessorTestKit.PARTITION_ID;

  @TempDir Path directory;

  private final List<String> told = new ArrayList<>();
  private StreamProcessorTestKit kit;

  @BeforeEach
  void startLeader() {
    List<ColumnFamilyDefinition> families = new ArrayList<>(BackupColumnFamily.all());
    families.addAll(TestBalances.FAMILIES);
    CheckpointListener listener =
        new CheckpointListener() {
          @Override
          public void onCheckpointCreated(Checkpoint checkpoint) {
            told.add("backup " + checkpoint.id());
          }

          @Override
          public void onCheckpointTaken(Checkpoint checkpoint, CheckpointOrigin origin) {
            told.add("taken " + checkpoint.id() + " " + origin);
          }

          @Override
          public void onCheckpointRequested(long checkpointId, CheckpointOrigin origin) {
            told.add("requested " + checkpointId + " " + origin);
          }
        };
    BackupMetrics metrics =
        new BackupMetrics(new SimpleMeterRegistry(), PARTITION, new SimClock(0));
    kit =
        StreamProcessorTestKit.builder()
            .directory(directory)
            .families(families)
            .processors(
                (db, builder) -> {
                  CheckpointRecords.register(PARTITION, db, builder, listener, metrics);
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
  void aMarkIsACheckpointTheListenerKnowsAsAMarker() {
    long mark = kit.writeCommand(CheckpointIntent.MARK, new CheckpointValue(5, -1, -1));
    kit.runUntilIdle();

    Record created = kit.followUps(mark).get(0);
    assertThat(created.metadata().intent()).isEqualTo(CheckpointIntent.CREATED);
    assertThat(((CheckpointValue) created.value()).checkpointPosition()).isEqualTo(mark);
    assertThat(CheckpointState.of(kit.db()).latestCheckpointId()).isEqualTo(5);
    assertThat(told).containsExactly("taken 5 MARKER");

    // a request for the latest checkpoint after it was taken says what it was asked to be
    kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(5, -1, -1));
    kit.writeCommand(CheckpointIntent.MARK, new CheckpointValue(4, -1, -1));
    kit.runUntilIdle();
    assertThat(told).containsExactly("taken 5 MARKER", "requested 5 BACKUP");
  }

  @Test
  void aCheckpointTakenThroughAStampIsToldAsStampedAndItsLateRequestSaysWhatItIs() {
    kit.writeCommand(CheckpointIntent.CREATE, new CheckpointValue(3, -1, -1));
    kit.runUntilIdle();
    kit.write(
        new Record(
            RecordMetadata.builder().command(DepositIntent.DEPOSIT).checkpointId(7).build(),
            new DepositValue("a", 1)));
    kit.runUntilIdle();
    assertThat(told).containsExactly("taken 3 BACKUP", "taken 7 STAMPED");

    kit.writeCommand(CheckpointIntent.MARK, new CheckpointValue(7, -1, -1));
    kit.runUntilIdle();
    assertThat(told).containsExactly("taken 3 BACKUP", "taken 7 STAMPED", "requested 7 MARKER");
  }

  @Test
  void aListenerThatKnowsNoMarkersBacksUpEverythingButMarkers() {
    List<Long> backups = new ArrayList<>();
    CheckpointListener plain = checkpoint -> backups.add(checkpoint.id());
    Checkpoint any = new Checkpoint(1, 1, 0, io.cairn.db.Digest128.ZERO);
    plain.onCheckpointTaken(any, CheckpointOrigin.MARKER);
    plain.onCheckpointTaken(any, CheckpointOrigin.STAMPED);
    plain.onCheckpointTaken(any, CheckpointOrigin.BACKUP);
    assertThat(backups).containsExactly(1L, 1L);
  }
}
