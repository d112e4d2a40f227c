package io.cairn.protocol.api;

import static io.cairn.protocol.api.ApiGenerators.accountIds;
import static io.cairn.protocol.api.ApiGenerators.backupBodies;
import static io.cairn.protocol.api.ApiGenerators.backupRequests;
import static io.cairn.protocol.api.ApiGenerators.balances;
import static io.cairn.protocol.api.ApiGenerators.commands;
import static io.cairn.protocol.api.ApiGenerators.partitionIds;
import static io.cairn.protocol.api.ApiGenerators.responses;
import static io.cairn.protocol.api.ApiGenerators.responsesOf;
import static io.cairn.protocol.api.ApiGenerators.topologies;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import io.cairn.protocol.Record;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/** Every API message decodes to what was encoded, and encoding is stable (seeded runs). */
final class ApiCodecRoundTripTest {
  private static final long SEED = 0x0A91_0001L;
  private static final int EXAMPLES = 500;

  @Test
  void shouldRoundTripCommandRequests() {
    qt().withFixedSeed(SEED)
        .withExamples(EXAMPLES)
        .forAll(partitionIds(), commands())
        .checkAssert(
            (partition, command) -> {
              CommandRequest request = new CommandRequest(partition, command);
              byte[] bytes = CommandCodec.encodeRequest(request);
              assertThat(CommandCodec.decodeRequest(bytes)).isEqualTo(request);
              assertThat(CommandCodec.encodeRequest(CommandCodec.decodeRequest(bytes)))
                  .isEqualTo(bytes);
            });
  }

  @Test
  void shouldRoundTripCommandResponses() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(EXAMPLES)
        .forAll(responsesOf(responses()))
        .checkAssert(
            (ApiResponse<Record> response) ->
                assertThat(CommandCodec.decodeResponse(CommandCodec.encodeResponse(response)))
                    .isEqualTo(response));
  }

  @Test
  void shouldRoundTripAccountQueries() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(EXAMPLES)
        .forAll(partitionIds(), accountIds(), responsesOf(balances()))
        .checkAssert(
            (partition, accountId, response) -> {
              AccountQuery query = new AccountQuery(partition, accountId);
              assertThat(AccountQueryCodec.decodeRequest(AccountQueryCodec.encodeRequest(query)))
                  .isEqualTo(query);
              assertThat(
                      AccountQueryCodec.decodeResponse(AccountQueryCodec.encodeResponse(response)))
                  .isEqualTo(response);
            });
  }

  @Test
  void shouldRoundTripTopologies() {
    TopologyCodec.decodeRequest(TopologyCodec.encodeRequest());
    qt().withFixedSeed(SEED + 3)
        .withExamples(EXAMPLES)
        .forAll(responsesOf(topologies()))
        .checkAssert(
            response ->
                assertThat(TopologyCodec.decodeResponse(TopologyCodec.encodeResponse(response)))
                    .isEqualTo(response));
  }

  @Test
  void shouldRoundTripBackupMessages() {
    qt().withFixedSeed(SEED + 4)
        .withExamples(EXAMPLES)
        .forAll(backupRequests(), responsesOf(backupBodies()))
        .checkAssert(
            (request, response) -> {
              assertThat(BackupCodec.decodeRequest(BackupCodec.encodeRequest(request)))
                  .isEqualTo(request);
              assertThat(BackupCodec.decodeResponse(BackupCodec.encodeResponse(response)))
                  .isEqualTo(response);
            });
  }

  @Test
  void shouldRoundTripExportingMessages() {
    qt().withFixedSeed(SEED + 5)
        .withExamples(100)
        .forAll(Generate.enumValues(ExportingOperation.class), responsesOf(Generate.booleans()))
        .checkAssert(
            (operation, response) -> {
              assertThat(ExportingCodec.decodeRequest(ExportingCodec.encodeRequest(operation)))
                  .isEqualTo(operation);
              assertThat(ExportingCodec.decodeResponse(ExportingCodec.encodeResponse(response)))
                  .isEqualTo(response);
            });
  }

  @Test
  void shouldRoundTripBackupScheduleMessages() {
    BackupScheduleCodec.decodeRequest(BackupScheduleCodec.encodeRequest());
    qt().withFixedSeed(SEED + 6)
        .withExamples(100)
        .forAll(responsesOf(ApiGenerators.scheduleStates()))
        .checkAssert(
            response ->
                assertThat(
                        BackupScheduleCodec.decodeResponse(
                            BackupScheduleCodec.encodeResponse(response)))
                    .isEqualTo(response));
  }

  @Test
  void shouldRoundTripRestoreMessages() {
    qt().withFixedSeed(SEED + 7)
        .withExamples(100)
        .forAll(ApiGenerators.restoreRequests(), responsesOf(ApiGenerators.restoreStates()))
        .checkAssert(
            (request, response) -> {
              assertThat(RestoreCodec.decodeRequest(RestoreCodec.encodeRequest(request)))
                  .isEqualTo(request);
              assertThat(RestoreCodec.decodeResponse(RestoreCodec.encodeResponse(response)))
                  .isEqualTo(response);
            });
  }

  @Test
  void shouldRoundTripRestorePointsMessages() {
    qt().withFixedSeed(SEED + 8)
        .withExamples(100)
        .forAll(ApiGenerators.restorePointLimits(), responsesOf(ApiGenerators.restorePointLists()))
        .checkAssert(
            (limit, response) -> {
              assertThat(RestorePointsCodec.decodeRequest(RestorePointsCodec.encodeRequest(limit)))
                  .isEqualTo(limit);
              assertThat(
                      RestorePointsCodec.decodeResponse(
                          RestorePointsCodec.encodeResponse(response)))
                  .isEqualTo(response);
            });
  }
}
