package io.cairn.protocol.api;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** QuickTheories generators of valid API messages. */
final class ApiGenerators {
  private ApiGenerators() {}

  /** Strings of 0..maxCodePoints code points (no surrogates), mixing ASCII and wider ones. */
  static Gen<String> strings(int minCodePoints, int maxCodePoints) {
    Gen<Integer> lengths = integers().between(minCodePoints, maxCodePoints);
    Gen<Integer> codePoints =
        Generate.oneOf(
            integers().between(0x20, 0x7E),
            integers().between(0xA0, 0xD7FF),
            integers().between(0x10000, 0x10FFFF));
    return in -> {
      int length = lengths.generate(in);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < length; i++) {
        text.appendCodePoint(codePoints.generate(in));
      }
      return text.toString();
    };
  }

  static Gen<String> accountIds() {
    return strings(1, 32);
  }

  static Gen<Integer> partitionIds() {
    return Generate.oneOf(
        integers().between(1, 8), integers().between(1, ApiDescriptor.PARTITION_ID_MAX));
  }

  /** Commands the gateway sends: account create, deposit, transfer, checkpoint create. */
  static Gen<Record> commands() {
    Gen<String> ids = accountIds();
    Gen<Long> numbers = Generate.oneOf(longs().all(), longs().between(-1, 1000));
    Gen<Integer> kinds = integers().between(0, 3);
    return in -> {
      long amount = numbers.generate(in);
      return switch (kinds.generate(in)) {
        case 0 ->
            new Record(
                RecordMetadata.builder().command(AccountIntent.CREATE).build(),
                new AccountValue(ids.generate(in), 0));
        case 1 ->
            new Record(
                RecordMetadata.builder().command(DepositIntent.DEPOSIT).build(),
                new DepositValue(ids.generate(in), amount));
        case 2 ->
            new Record(
                RecordMetadata.builder().command(TransferIntent.CREATE).build(),
                new TransferValue(ids.generate(in), ids.generate(in), amount, -1, -1));
        default ->
            new Record(
                RecordMetadata.builder().command(CheckpointIntent.CREATE).build(),
                new CheckpointValue(amount, -1, -1));
      };
    };
  }

  /** Responses a partition writes: events and rejections of the commands above. */
  static Gen<Record> responses() {
    Gen<String> ids = accountIds();
    Gen<Long> numbers = Generate.oneOf(longs().all(), longs().between(-1, 1000));
    Gen<Integer> kinds = integers().between(0, 5);
    Gen<RejectionType> rejections =
        Generate.pick(
            Arrays.stream(RejectionType.values()).filter(t -> t != RejectionType.NONE).toList());
    Gen<String> reasons = strings(0, 40);
    return in -> {
      RecordMetadata.Builder meta =
          RecordMetadata.builder()
              .position(numbers.generate(in))
              .key(numbers.generate(in))
              .timestamp(numbers.generate(in));
      return switch (kinds.generate(in)) {
        case 0 ->
            new Record(
                meta.event(AccountIntent.CREATED).build(), new AccountValue(ids.generate(in), 0));
        case 1 ->
            new Record(
                meta.event(DepositIntent.DEPOSITED).build(),
                new DepositValue(ids.generate(in), numbers.generate(in)));
        case 2 ->
            new Record(
                meta.event(TransferIntent.DEBITED).build(),
                new TransferValue(ids.generate(in), ids.generate(in), numbers.generate(in), 1, 2));
        case 3 ->
            new Record(
                meta.event(CheckpointIntent.CREATED).build(),
                new CheckpointValue(
                    numbers.generate(in),
                    numbers.generate(in),
                    numbers.generate(in),
                    new byte[32]));
        case 4 ->
            new Record(
                meta.event(CheckpointIntent.IGNORED).build(),
                new CheckpointValue(numbers.generate(in), -1, -1));
        default ->
            new Record(
                meta.rejection(
                        TransferIntent.CREATE, rejections.generate(in), "x" + reasons.generate(in))
                    .build(),
                new TransferValue(
                    ids.generate(in), ids.generate(in), numbers.generate(in), -1, -1));
      };
    };
  }

  /** Failures of any non-OK status; NOT_LEADER sometimes names a leader. */
  static <T> Gen<ApiResponse<T>> failures() {
    Gen<ResponseStatus> statuses =
        Generate.pick(
            Arrays.stream(ResponseStatus.values()).filter(s -> s != ResponseStatus.OK).toList());
    Gen<Integer> leaders = Generate.oneOf(Generate.constant(-1), integers().between(0, 9));
    Gen<String> reasons = strings(0, 60);
    return in -> {
      ResponseStatus status = statuses.generate(in);
      int leader = status == ResponseStatus.NOT_LEADER ? leaders.generate(in) : -1;
      return new ApiResponse.Failure<>(status, leader, reasons.generate(in));
    };
  }

  /** OK with a body, or a failure, half and half. */
  static <T> Gen<ApiResponse<T>> responsesOf(Gen<T> bodies) {
    Gen<ApiResponse<T>> oks = bodies.map(ApiResponse::ok);
    return Generate.oneOf(oks, failures());
  }

  static Gen<BackupScheduleState> scheduleStates() {
    Gen<BackupScheduleState.LastRun> runs =
        in ->
            new BackupScheduleState.LastRun(
                longs().all().generate(in),
                longs().all().generate(in),
                longs().all().generate(in),
                Generate.pick(List.of("taken", "already_taken", "superseded", "failed"))
                    .generate(in),
                integers().between(1, Integer.MAX_VALUE).generate(in),
                strings(0, 40).generate(in));
    Gen<Optional<BackupScheduleState.LastRun>> lastRuns =
        Generate.oneOf(runs.map(Optional::of), Generate.constant(Optional.empty()));
    Gen<BackupScheduleState.RetentionPass> passes =
        in -> {
          List<Long> ids = new ArrayList<>();
          int count = integers().between(0, 5).generate(in);
          for (int i = 0; i < count; i++) {
            ids.add(longs().all().generate(in));
          }
          List<BackupScheduleState.LockedBackup> locked = new ArrayList<>();
          int lockedCount = integers().between(0, 3).generate(in);
          for (int i = 0; i < lockedCount; i++) {
            locked.add(
                new BackupScheduleState.LockedBackup(
                    longs().all().generate(in), longs().all().generate(in)));
          }
          return new BackupScheduleState.RetentionPass(
              longs().all().generate(in),
              integers().between(0, 1000).generate(in),
              ids,
              strings(0, 20).generate(in),
              locked);
        };
    Gen<Optional<BackupScheduleState.RetentionPass>> lastPasses =
        Generate.oneOf(passes.map(Optional::of), Generate.constant(Optional.empty()));
    Gen<Optional<BackupScheduleState.Retention>> retentions =
        Generate.oneOf(
            Generate.constant(Optional.empty()),
            in ->
                Optional.of(
                    new BackupScheduleState.Retention(
                        integers().between(0, 100).generate(in),
                        longs().between(0, Long.MAX_VALUE).generate(in),
                        integers().between(1, 100).generate(in),
                        lastPasses.generate(in))));
    Gen<Optional<BackupScheduleState.LastMarker>> lastMarkers =
        Generate.oneOf(
            Generate.constant(Optional.empty()),
            in ->
                Optional.of(
                    new BackupScheduleState.LastMarker(
                        longs().all().generate(in),
                        longs().all().generate(in),
                        Generate.pick(List.of("taken", "superseded", "failed")).generate(in),
                        strings(0, 20).generate(in))));
    Gen<Optional<BackupScheduleState.Markers>> markers =
        Generate.oneOf(
            Generate.constant(Optional.empty()),
            in ->
                Optional.of(
                    new BackupScheduleState.Markers(
                        longs().between(1, Long.MAX_VALUE).generate(in),
                        lastMarkers.generate(in),
                        integers().between(0, 1000).generate(in))));
    return in ->
        new BackupScheduleState(
            integers().between(0, 1023).generate(in),
            longs().between(1, Long.MAX_VALUE).generate(in),
            longs().all().generate(in),
            longs().all().generate(in),
            lastRuns.generate(in),
            integers().between(0, Integer.MAX_VALUE).generate(in),
            retentions.generate(in),
            markers.generate(in),
            Generate.oneOf(Generate.constant(""), Generate.constant("0 2 * * 1-5")).generate(in));
  }

  static Gen<AccountBalance> balances() {
    return Generate.oneOf(
        longs().all().map(balance -> new AccountBalance(true, balance)),
        Generate.constant(AccountBalance.notFound()));
  }

  static Gen<BrokerTopology> topologies() {
    Gen<Integer> counts = integers().between(1, 12);
    Gen<ReplicaRole> roles = Generate.enumValues(ReplicaRole.class);
    Gen<ReplicaHealth> healths = Generate.enumValues(ReplicaHealth.class);
    Gen<Long> terms = longs().between(0, Long.MAX_VALUE);
    Gen<String> names = strings(1, 20);
    Gen<String> reasons = strings(0, 30);
    Gen<Boolean> hosts = Generate.booleans();
    return in -> {
      int partitionCount = counts.generate(in);
      List<PartitionReplica> replicas = new ArrayList<>();
      for (int partition = 1; partition <= partitionCount; partition++) {
        if (hosts.generate(in)) {
          replicas.add(
              new PartitionReplica(
                  partition,
                  roles.generate(in),
                  terms.generate(in),
                  healths.generate(in),
                  reasons.generate(in)));
        }
      }
      return new BrokerTopology(
          integers().between(0, 1000).generate(in),
          names.generate(in),
          names.generate(in),
          partitionCount,
          integers().between(1, 5).generate(in),
          replicas);
    };
  }

  static Gen<BackupRequest> backupRequests() {
    Gen<Long> ids = longs().between(1, Long.MAX_VALUE);
    Gen<String> patterns = Generate.pick(List.of("*", "12", "3*", "9223372036854775807"));
    Gen<String> tokens = Generate.oneOf(Generate.constant(""), strings(1, 40));
    Gen<Integer> sizes = integers().between(1, ApiDescriptor.PAGE_SIZE_MAX);
    Gen<Integer> kinds = integers().between(0, 2);
    return in ->
        switch (kinds.generate(in)) {
          case 0 -> BackupRequest.status(ids.generate(in));
          case 1 -> BackupRequest.delete(ids.generate(in));
          default ->
              BackupRequest.list(patterns.generate(in), tokens.generate(in), sizes.generate(in));
        };
  }

  static Gen<BackupStatusEntry> backupEntries() {
    Gen<BackupState> states = Generate.enumValues(BackupState.class);
    Gen<Long> times = longs().between(0, Long.MAX_VALUE);
    Gen<String> names = strings(1, 20);
    Gen<Boolean> flags = Generate.booleans();
    return in -> {
      BackupState state = states.generate(in);
      int node = integers().between(0, 100).generate(in);
      int partition = integers().between(1, ApiDescriptor.PARTITION_ID_MAX).generate(in);
      long checkpoint = longs().between(1, Long.MAX_VALUE).generate(in);
      if (state == BackupState.DOES_NOT_EXIST) {
        return BackupStatusEntry.doesNotExist(node, partition, checkpoint);
      }
      boolean withDetails = state == BackupState.COMPLETED || flags.generate(in);
      Optional<BackupDetails> details =
          withDetails
              ? Optional.of(
                  new BackupDetails(
                      times.generate(in),
                      flags.generate(in) ? "" : names.generate(in),
                      integers().between(1, 100).generate(in),
                      names.generate(in),
                      "00ff" + "ab".repeat(integers().between(0, 30).generate(in)),
                      integers().between(0, Integer.MAX_VALUE).generate(in),
                      times.generate(in)))
              : Optional.empty();
      return new BackupStatusEntry(
          node,
          partition,
          checkpoint,
          state,
          state == BackupState.FAILED ? names.generate(in) : "",
          times.generate(in),
          times.generate(in),
          details);
    };
  }

  static Gen<BackupEntries> backupBodies() {
    Gen<BackupStatusEntry> entries = backupEntries();
    Gen<Integer> counts = integers().between(0, 6);
    Gen<String> tokens = Generate.oneOf(Generate.constant(""), strings(1, 30));
    return in -> {
      int count = counts.generate(in);
      List<BackupStatusEntry> list = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        list.add(entries.generate(in));
      }
      return new BackupEntries(list, tokens.generate(in));
    };
  }

  static Gen<RestoreRequest> restoreRequests() {
    return in -> {
      RestoreRequest.Kind kind = Generate.enumValues(RestoreRequest.Kind.class).generate(in);
      boolean valued =
          kind == RestoreRequest.Kind.BACKUP_ID
              || kind == RestoreRequest.Kind.CHECKPOINT_ID
              || kind == RestoreRequest.Kind.TIME;
      return new RestoreRequest(kind, valued ? longs().between(1, Long.MAX_VALUE).generate(in) : 0);
    };
  }

  static Gen<NodeRestoreState> restoreStates() {
    Gen<NodeRestoreState.PartitionRestoreState> partitions =
        in ->
            new NodeRestoreState.PartitionRestoreState(
                integers().between(1, ApiDescriptor.PARTITION_ID_MAX).generate(in),
                Generate.pick(List.of("DOWNLOADING", "INSTALLING", "DONE", "CHECKING", "VERIFIED"))
                    .generate(in),
                longs().between(0, Long.MAX_VALUE).generate(in),
                longs().between(0, Long.MAX_VALUE).generate(in),
                longs().between(0, Long.MAX_VALUE).generate(in),
                longs().between(-1, Long.MAX_VALUE).generate(in),
                strings(0, 20).generate(in));
    return in -> {
      List<NodeRestoreState.PartitionRestoreState> list = new ArrayList<>();
      int count = integers().between(0, 4).generate(in);
      for (int i = 0; i < count; i++) {
        list.add(partitions.generate(in));
      }
      return new NodeRestoreState(
          integers().between(0, 1023).generate(in),
          Generate.enumValues(NodeRestoreState.Phase.class).generate(in),
          strings(0, 30).generate(in),
          longs().between(0, Long.MAX_VALUE).generate(in),
          longs().between(0, Long.MAX_VALUE).generate(in),
          strings(0, 40).generate(in),
          longs().all().generate(in),
          longs().all().generate(in),
          list);
    };
  }

  static Gen<Integer> restorePointLimits() {
    return integers().between(1, RestorePointEntry.LIMIT_MAX);
  }

  static Gen<List<RestorePointEntry>> restorePointLists() {
    Gen<RestorePointEntry> points =
        in -> {
          boolean restorable = Generate.booleans().generate(in);
          return new RestorePointEntry(
              longs().between(1, Long.MAX_VALUE).generate(in),
              longs().between(0, Long.MAX_VALUE).generate(in),
              restorable,
              restorable ? "" : strings(1, 40).generate(in));
        };
    return in -> {
      List<RestorePointEntry> list = new ArrayList<>();
      int count = integers().between(0, 5).generate(in);
      for (int i = 0; i < count; i++) {
        list.add(points.generate(in));
      }
      return List.copyOf(list);
    };
  }
}
