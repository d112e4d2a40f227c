package io.cairn.protocol.api;

import static io.cairn.protocol.api.ApiGenerators.backupBodies;
import static io.cairn.protocol.api.ApiGenerators.backupRequests;
import static io.cairn.protocol.api.ApiGenerators.balances;
import static io.cairn.protocol.api.ApiGenerators.commands;
import static io.cairn.protocol.api.ApiGenerators.responses;
import static io.cairn.protocol.api.ApiGenerators.responsesOf;
import static io.cairn.protocol.api.ApiGenerators.topologies;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Every decoder of the API, fed random, truncated and corrupted bytes, fails only with a {@link
 * ProtocolException} whose message starts with "Expected", and whatever does decode re-encodes to
 * the same bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class ApiMalformedInputTest {
  private static final long SEED = 0x0A91_0100L;

  /** A decoder and the encoder that must reproduce its input. */
  private record Codec(
      String name, Function<byte[], Object> decode, Function<Object, byte[]> encode) {}

  @SuppressWarnings("unchecked")
  private static final List<Codec> CODECS =
      List.of(
          new Codec(
              "command request",
              CommandCodec::decodeRequest,
              v -> CommandCodec.encodeRequest((CommandRequest) v)),
          new Codec(
              "command response",
              CommandCodec::decodeResponse,
              v -> CommandCodec.encodeResponse((ApiResponse<Record>) v)),
          new Codec(
              "account request",
              AccountQueryCodec::decodeRequest,
              v -> AccountQueryCodec.encodeRequest((AccountQuery) v)),
          new Codec(
              "account response",
              AccountQueryCodec::decodeResponse,
              v -> AccountQueryCodec.encodeResponse((ApiResponse<AccountBalance>) v)),
          new Codec(
              "topology request",
              bytes -> {
                TopologyCodec.decodeRequest(bytes);
                return "ok";
              },
              v -> TopologyCodec.encodeRequest()),
          new Codec(
              "topology response",
              TopologyCodec::decodeResponse,
              v -> TopologyCodec.encodeResponse((ApiResponse<BrokerTopology>) v)),
          new Codec(
              "backup request",
              BackupCodec::decodeRequest,
              v -> BackupCodec.encodeRequest((BackupRequest) v)),
          new Codec(
              "backup response",
              BackupCodec::decodeResponse,
              v -> BackupCodec.encodeResponse((ApiResponse<BackupEntries>) v)),
          new Codec(
              "exporting request",
              ExportingCodec::decodeRequest,
              v -> ExportingCodec.encodeRequest((ExportingOperation) v)),
          new Codec(
              "exporting response",
              ExportingCodec::decodeResponse,
              v -> ExportingCodec.encodeResponse((ApiResponse<Boolean>) v)),
          new Codec(
              "backup schedule request",
              bytes -> {
                BackupScheduleCodec.decodeRequest(bytes);
                return "ok";
              },
              v -> BackupScheduleCodec.encodeRequest()),
          new Codec(
              "backup schedule response",
              BackupScheduleCodec::decodeResponse,
              v -> BackupScheduleCodec.encodeResponse((ApiResponse<BackupScheduleState>) v)),
          new Codec(
              "restore request",
              RestoreCodec::decodeRequest,
              v -> RestoreCodec.encodeRequest((RestoreRequest) v)),
          new Codec(
              "restore response",
              RestoreCodec::decodeResponse,
              v -> RestoreCodec.encodeResponse((ApiResponse<NodeRestoreState>) v)),
          new Codec(
              "restore points request",
              RestorePointsCodec::decodeRequest,
              v -> RestorePointsCodec.encodeRequest((Integer) v)),
          new Codec(
              "restore points response",
              RestorePointsCodec::decodeResponse,
              v -> RestorePointsCodec.encodeResponse((ApiResponse<List<RestorePointEntry>>) v)));

  @Test
  void shouldRejectRandomBytesOnlyWithProtocolException() {
    qt().withFixedSeed(SEED)
        .withExamples(2_000)
        .forAll(randomBytes(), Generate.booleans())
        .checkAssert(
            (bytes, versionFirst) -> {
              if (versionFirst && bytes.length > 0) {
                bytes[0] = (byte) ApiDescriptor.VERSION;
              }
              for (Codec codec : CODECS) {
                assertCanonicalOrRejected(codec, bytes);
              }
            });
  }

  @Test
  void shouldRejectEveryTruncationAndCorruption() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(150)
        .forAll(validEncodings(), corruptions())
        .checkAssert(
            (encoding, corruption) -> {
              Codec codec = CODECS.get(encoding.codecIndex);
              byte[] bytes = encoding.bytes;
              for (int length = 0; length < bytes.length; length++) {
                byte[] truncated = java.util.Arrays.copyOf(bytes, length);
                assertThatThrownBy(() -> codec.decode.apply(truncated))
                    .as("%s truncated to %d of %d bytes", codec.name, length, bytes.length)
                    .isInstanceOf(ProtocolException.class);
              }
              byte[] corrupted = bytes.clone();
              for (int[] change : corruption) {
                corrupted[change[0] % corrupted.length] = (byte) change[1];
              }
              assertCanonicalOrRejected(codec, corrupted);
            });
  }

  @Test
  void shouldRejectTrailingBytesAfterEveryMessage() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(100)
        .forAll(validEncodings())
        .checkAssert(
            encoding -> {
              Codec codec = CODECS.get(encoding.codecIndex);
              byte[] longer = java.util.Arrays.copyOf(encoding.bytes, encoding.bytes.length + 1);
              assertThatThrownBy(() -> codec.decode.apply(longer))
                  .as(codec.name)
                  .isInstanceOf(ProtocolException.class);
            });
  }

  @Test
  void shouldRejectAnotherVersionNamingIt() {
    byte[] bytes = ExportingCodec.encodeRequest(ExportingOperation.PAUSE);
    bytes[0] = 2;
    assertThatThrownBy(() -> ExportingCodec.decodeRequest(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected version 1, but was 2 (cairn-exporting request)");
  }

  @Test
  void shouldRejectAnEmptyPayload() {
    assertThatThrownBy(() -> TopologyCodec.decodeRequest(new byte[0]))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("version")
        .hasMessageContaining("cairn-topology request");
  }

  @Test
  void shouldRejectAnUnknownStatusCode() {
    byte[] bytes = ExportingCodec.encodeResponse(ApiResponse.ok(true));
    bytes[1] = 9;
    assertThatThrownBy(() -> ExportingCodec.decodeResponse(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected a response status code in [0, 8], but was 9");
  }

  @Test
  void shouldRejectAFlagOtherThanZeroOrOne() {
    byte[] bytes = ExportingCodec.encodeResponse(ApiResponse.ok(true));
    bytes[2] = 2;
    assertThatThrownBy(() -> ExportingCodec.decodeResponse(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected paused flag 0 or 1, but was 2");
  }

  @Test
  void shouldRejectAPartitionIdOutOfRange() {
    byte[] bytes = AccountQueryCodec.encodeRequest(new AccountQuery(1, "alice"));
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(1, 0);
    assertThatThrownBy(() -> AccountQueryCodec.decodeRequest(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected partition id in [1, 32767], but was 0");
  }

  @Test
  void shouldRejectAnEmptyOrOversizedAccountIdOnEncode() {
    assertThatThrownBy(() -> AccountQueryCodec.encodeRequest(new AccountQuery(1, "")))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("account id of 1..128 bytes");
    assertThatThrownBy(() -> AccountQueryCodec.encodeRequest(new AccountQuery(1, "x".repeat(129))))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("but was 129 bytes");
  }

  @Test
  void shouldRejectAHugeListCountBeforeAllocating() {
    byte[] ok = BackupCodec.encodeResponse(ApiResponse.ok(BackupEntries.none()));
    byte[] bytes = ok.clone();
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(2, 90_000);
    assertThatThrownBy(() -> BackupCodec.decodeResponse(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("for 90000 backup entries");
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(2, -1);
    assertThatThrownBy(() -> BackupCodec.decodeResponse(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("backup entries count in [0, 100000], but was -1");
  }

  @Test
  void shouldRejectACommandRecordInACommandResponse() {
    Record command =
        new Record(
            RecordMetadata.builder().command(AccountIntent.CREATE).build(),
            new AccountValue("alice", 0));
    byte[] request = CommandCodec.encodeRequest(new CommandRequest(1, command));
    // A response with the same record: version, status OK, then the record.
    byte[] response = new byte[request.length - 3];
    response[0] = 1;
    response[1] = 0;
    System.arraycopy(request, 5, response, 2, request.length - 5);
    assertThatThrownBy(() -> CommandCodec.decodeResponse(response))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected an EVENT or REJECTION record, but was a COMMAND");
    assertThatThrownBy(() -> CommandCodec.encodeResponse(ApiResponse.ok(command)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRejectAnEventInACommandRequest() {
    assertThatThrownBy(
            () ->
                new CommandRequest(
                    1,
                    new Record(
                        RecordMetadata.builder().event(AccountIntent.CREATED).build(),
                        new AccountValue("alice", 0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected a COMMAND record, but was EVENT");
  }

  @Test
  void shouldRejectABackupRequestBreakingItsOperationsRules() {
    byte[] bytes = BackupCodec.encodeRequest(BackupRequest.status(5));
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(2, 0);
    assertThatThrownBy(() -> BackupCodec.decodeRequest(bytes))
        .isInstanceOf(ProtocolException.class)
        .hasMessageContaining("Expected checkpointId >= 1, but was 0 (backup request STATUS)");
    assertThatThrownBy(() -> BackupRequest.list("*", "", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pageSize in [1, 1000], but was 0");
  }

  @Test
  void shouldRejectATopologyReportingAPartitionTwice() {
    PartitionReplica replica =
        new PartitionReplica(1, ReplicaRole.LEADER, 1, ReplicaHealth.HEALTHY, "");
    assertThatThrownBy(() -> new BrokerTopology(0, "c", "v", 2, 1, List.of(replica, replica)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reported partition 1 twice");
    assertThatThrownBy(
            () ->
                new BrokerTopology(
                    0,
                    "c",
                    "v",
                    1,
                    1,
                    List.of(
                        new PartitionReplica(2, ReplicaRole.LEADER, 1, ReplicaHealth.HEALTHY, ""))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected partitions in [1, 1], but node 0 reported partition 2");
  }

  @Test
  void shouldCutLongReasonsWithoutSplittingACodePoint() {
    String emoji = "\uD83D\uDE00"; // 4 bytes of UTF-8
    ApiResponse.Failure<Object> failure =
        new ApiResponse.Failure<>(ResponseStatus.INVALID, -1, "a" + emoji.repeat(2000));
    assertThat(failure.reason()).hasSize(1 + 2 * 1023);
    assertThat(failure.reason()).endsWith(emoji);
    ApiResponse<Boolean> decoded =
        ExportingCodec.decodeResponse(ExportingCodec.encodeResponse(failure.cast()));
    assertThat(decoded).isEqualTo(failure);
    assertThat(new ApiResponse.Failure<>(ResponseStatus.INVALID, -1, "x\uD800y").reason())
        .isEqualTo("x?y");
  }

  @Test
  void shouldRefuseAFailureWithStatusOk() {
    assertThatThrownBy(() -> new ApiResponse.Failure<>(ResponseStatus.OK, -1, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ApiResponse.notLeader(-2, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A valid encoding of one of the messages and the index of its codec. */
  private record Encoding(int codecIndex, byte[] bytes) {}

  private static Gen<Encoding> validEncodings() {
    Gen<Integer> indexes = integers().between(0, CODECS.size() - 1);
    Gen<CommandRequest> commandRequests =
        ApiGenerators.partitionIds().zip(commands(), CommandRequest::new);
    Gen<ApiResponse<Record>> commandResponses = responsesOf(responses());
    Gen<AccountQuery> queries =
        ApiGenerators.partitionIds().zip(ApiGenerators.accountIds(), AccountQuery::new);
    Gen<ApiResponse<AccountBalance>> balanceResponses = responsesOf(balances());
    Gen<ApiResponse<BrokerTopology>> topologyResponses = responsesOf(topologies());
    Gen<BackupRequest> backupRequests = backupRequests();
    Gen<ApiResponse<BackupEntries>> backupResponses = responsesOf(backupBodies());
    Gen<ExportingOperation> operations = Generate.enumValues(ExportingOperation.class);
    Gen<ApiResponse<Boolean>> pausedResponses = responsesOf(Generate.booleans());
    Gen<ApiResponse<BackupScheduleState>> scheduleResponses =
        responsesOf(ApiGenerators.scheduleStates());
    Gen<RestoreRequest> restoreRequests = ApiGenerators.restoreRequests();
    Gen<ApiResponse<NodeRestoreState>> restoreResponses =
        responsesOf(ApiGenerators.restoreStates());
    Gen<Integer> pointLimits = ApiGenerators.restorePointLimits();
    Gen<ApiResponse<List<RestorePointEntry>>> pointResponses =
        responsesOf(ApiGenerators.restorePointLists());
    return in -> {
      int index = indexes.generate(in);
      Object value =
          switch (index) {
            case 0 -> commandRequests.generate(in);
            case 1 -> commandResponses.generate(in);
            case 2 -> queries.generate(in);
            case 3 -> balanceResponses.generate(in);
            case 4 -> "ok";
            case 5 -> topologyResponses.generate(in);
            case 6 -> backupRequests.generate(in);
            case 7 -> backupResponses.generate(in);
            case 8 -> operations.generate(in);
            case 9 -> pausedResponses.generate(in);
            case 10 -> "ok";
            case 11 -> scheduleResponses.generate(in);
            case 12 -> restoreRequests.generate(in);
            case 13 -> restoreResponses.generate(in);
            case 14 -> pointLimits.generate(in);
            default -> pointResponses.generate(in);
          };
      return new Encoding(index, CODECS.get(index).encode.apply(value));
    };
  }

  private static Gen<byte[]> randomBytes() {
    Gen<Integer> values = Generate.oneOf(integers().between(-128, 127), integers().between(-2, 5));
    Gen<Integer> lengths = integers().between(0, 200);
    return in -> {
      byte[] bytes = new byte[lengths.generate(in)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) (int) values.generate(in);
      }
      return bytes;
    };
  }

  private static Gen<List<int[]>> corruptions() {
    Gen<int[]> change =
        integers()
            .between(0, Integer.MAX_VALUE)
            .zip(
                Generate.oneOf(
                    integers().between(-128, 127), Generate.pick(List.of(0, 1, -1, 127))),
                (index, value) -> new int[] {index, value});
    return lists().of(change).ofSizeBetween(1, 4);
  }

  private static void assertCanonicalOrRejected(Codec codec, byte[] bytes) {
    Object decoded;
    try {
      decoded = codec.decode.apply(bytes);
    } catch (ProtocolException expected) {
      assertThat(expected.getMessage()).as(codec.name).startsWith("Expected");
      return;
    }
    assertThat(codec.encode.apply(decoded)).as(codec.name).isEqualTo(bytes);
  }
}
