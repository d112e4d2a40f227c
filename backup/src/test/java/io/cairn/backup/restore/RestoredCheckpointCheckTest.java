package io.cairn.backup.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupColumnFamily;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.db.DbConfig;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;
import io.cairn.scheduler.SimClock;
import io.cairn.streamprocessor.CommandInterceptor.Decision;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import io.cairn.streamprocessor.SideEffect;
import io.cairn.streamprocessor.StreamProcessorColumnFamily;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check a restored leader runs on the kept checkpoint command, on a real database. */
final class RestoredCheckpointCheckTest {

  private static final long POSITION = 42;

  @TempDir Path directory;
  private CairnDb db;
  private final List<DigestCheck> told = new ArrayList<>();

  @BeforeEach
  void openState() {
    List<ColumnFamilyDefinition> families = new ArrayList<>(StreamProcessorColumnFamily.all());
    families.addAll(BackupColumnFamily.all());
    families.addAll(LedgerColumnFamily.all());
    db = CairnDb.open(directory, DbConfig.defaults(), families, new SimpleMeterRegistry());
    ColumnFamily<String, Long> accounts =
        db.columnFamily(LedgerColumnFamily.LEDGER_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
    accounts.put("alice", 70L);
    accounts.put("bob", 30L);
  }

  @AfterEach
  void closeState() {
    db.close();
  }

  private RestoreMarker marker(String digest) {
    return new RestoreMarker(7, 1, 0, POSITION, digest, Optional.empty(), "0.1.0");
  }

  private RestoredCheckpointCheck check(String digest, boolean fail) {
    return new RestoredCheckpointCheck(marker(digest), db, fail, told::add);
  }

  @Test
  void shouldLetTheCheckpointThroughWhenTheDigestMatches() {
    String digest = db.stateDigest().toHex();
    RecordingResult result = new RecordingResult();

    Decision decision = check(digest, true).intercept(context(POSITION, create(7)), result);

    assertThat(decision).isEqualTo(Decision.CONTINUE);
    assertThat(result.failure).isNull();
    assertThat(told)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.matches()).isTrue();
              assertThat(c.actualDigest()).hasValue(digest);
            });
  }

  @Test
  void shouldFailThePartitionWithAReportWhenTheDigestDiffers() {
    String actual = db.stateDigest().toHex();
    String expected = "0123456789abcdef0123456789abcdef";
    RecordingResult result = new RecordingResult();

    Decision decision = check(expected, true).intercept(context(POSITION, create(7)), result);

    assertThat(decision).isEqualTo(Decision.HANDLED);
    assertThat(result.failure)
        .contains(expected)
        .contains(actual)
        .contains("LEDGER_ACCOUNTS 2 entries")
        .contains("partition 1, backup 7, checkpoint position 42");
    assertThat(told).singleElement().satisfies(c -> assertThat(c.matches()).isFalse());
  }

  @Test
  void shouldOnlyReportAMismatchWhenNotFailing() {
    RecordingResult result = new RecordingResult();

    Decision decision =
        check("0123456789abcdef0123456789abcdef", false)
            .intercept(context(POSITION, create(7)), result);

    assertThat(decision).isEqualTo(Decision.CONTINUE);
    assertThat(result.failure).isNull();
    assertThat(told).singleElement().satisfies(c -> assertThat(c.matches()).isFalse());
  }

  @Test
  void shouldCheckAMarkersCommandAtARestorePoint() {
    String digest = db.stateDigest().toHex();
    RecordingResult result = new RecordingResult();

    Decision decision =
        check(digest, true)
            .intercept(
                context(
                    POSITION,
                    command(
                        CheckpointIntent.MARK,
                        new CheckpointValue(
                            7, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP))),
                result);

    assertThat(decision).isEqualTo(Decision.CONTINUE);
    assertThat(told).hasSize(1).allSatisfy(c -> assertThat(c.matches()).isTrue());
    assertThat(result.failure).isNull();
  }

  @Test
  void shouldFailWhenAnotherCommandSitsAtTheCheckpointPosition() {
    String digest = db.stateDigest().toHex();
    RecordingResult result = new RecordingResult();

    check(digest, true)
        .intercept(
            context(POSITION, command(DepositIntent.DEPOSIT, new DepositValue("alice", 1))),
            result);
    check(digest, true).intercept(context(POSITION, create(8)), result);

    assertThat(told).hasSize(2).allSatisfy(c -> assertThat(c.matches()).isFalse());
    assertThat(told.get(0).problem()).hasValueSatisfying(p -> assertThat(p).contains("DEPOSIT"));
    assertThat(result.failure).contains("not CHECKPOINT CREATE or MARK(7)");
  }

  @Test
  void shouldIgnoreEveryOtherPosition() {
    RecordingResult result = new RecordingResult();

    Decision decision =
        check("0123456789abcdef0123456789abcdef", true)
            .intercept(context(POSITION + 1, create(7)), result);

    assertThat(decision).isEqualTo(Decision.CONTINUE);
    assertThat(told).isEmpty();
    assertThat(result.failure).isNull();
  }

  @Test
  void shouldCountEveryOutcomeOfTheBrokersCheck() {
    // given the check a broker registers, with its partition's backup meters
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BackupMetrics metrics = new BackupMetrics(registry, 1, new SimClock(0));
    String digest = db.stateDigest().toHex();

    // when it checks a match, a mismatch, a command that is not the checkpoint, and another
    // position
    RecordingResult matched = new RecordingResult();
    RestoredCheckpointCheck.failingPartition(marker(digest), db, metrics)
        .intercept(context(POSITION, create(7)), matched);
    RecordingResult mismatched = new RecordingResult();
    Decision decision =
        RestoredCheckpointCheck.failingPartition(
                marker("0123456789abcdef0123456789abcdef"), db, metrics)
            .intercept(context(POSITION, create(7)), mismatched);
    RecordingResult invalid = new RecordingResult();
    RestoredCheckpointCheck.failingPartition(marker(digest), db, metrics)
        .intercept(context(POSITION, create(9)), invalid);
    RestoredCheckpointCheck.failingPartition(marker(digest), db, metrics)
        .intercept(context(POSITION + 1, create(7)), new RecordingResult());

    // then each outcome is counted once, tagged by result and partition, and only a match serves
    assertThat(matched.failure).isNull();
    assertThat(decision).isEqualTo(Decision.HANDLED);
    assertThat(mismatched.failure).contains(digest);
    assertThat(invalid.failure).contains("not CHECKPOINT CREATE or MARK(7)");
    for (RestoreCheckResult result : RestoreCheckResult.values()) {
      assertThat(metrics.restoreCheckCount(result)).as("%s", result).isEqualTo(1.0);
      assertThat(
              registry
                  .get(BackupMetrics.RESTORE_CHECKS)
                  .tag("partition", "1")
                  .tag("result", result.name().toLowerCase(java.util.Locale.ROOT))
                  .counter()
                  .count())
          .isEqualTo(1.0);
    }
    metrics.close();
    assertThat(registry.find(BackupMetrics.RESTORE_CHECKS).counters()).isEmpty();
  }

  private static Record create(long id) {
    return command(
        CheckpointIntent.CREATE,
        new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  private static Record command(Intent intent, RecordValue value) {
    return new Record(RecordMetadata.builder().command(intent).build(), value);
  }

  private static ProcessingContext context(long position, Record command) {
    Record positioned =
        new Record(command.metadata().toBuilder().position(position).build(), command.value());
    return new ProcessingContext() {
      @Override
      public int partitionId() {
        return 1;
      }

      @Override
      public Record command() {
        return positioned;
      }
    };
  }

  /** Records a partition failure; every other outcome is unexpected here. */
  private static final class RecordingResult implements ProcessingResultBuilder {
    String failure;

    @Override
    public void failPartition(String reason, Throwable cause) {
      failure = reason;
    }

    private static ProcessingResultBuilder unexpected() {
      throw new AssertionError("the check only reads state and may fail the partition");
    }

    @Override
    public ProcessingResultBuilder appendEvent(long key, Intent intent, RecordValue value) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder appendCommand(long key, Intent intent, RecordValue value) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder appendCommand(Record command) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder prependCommand(long key, Intent intent, RecordValue value) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder appendRejection(RejectionType type, String reason) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder respondWithEvent(long key, Intent intent, RecordValue value) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder respondWithRejection(RejectionType type, String reason) {
      return unexpected();
    }

    @Override
    public ProcessingResultBuilder appendSideEffect(SideEffect sideEffect) {
      return unexpected();
    }
  }
}
