package io.cairn.fuzz;

import static io.cairn.fuzz.DecoderContract.decodesOrRefuses;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.cairn.auth.apikey.ApiKeyFile;
import io.cairn.auth.apikey.InvalidApiKeyFileException;
import io.cairn.backup.checkpoint.CheckpointStateCodec;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.interpartition.InterPartitionCodec;
import io.cairn.broker.partition.ArchivePeerRecords;
import io.cairn.config.ConfigException;
import io.cairn.gateway.config.GatewayConfigReader;
import io.cairn.protocol.ProtocolException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * What a broker or gateway reads that it did not write itself in this run: its YAML config, its API
 * key file, commands from other partitions' leaders, the log archive's records from the other
 * members of a partition, and the checkpoint state in its snapshot (which a restore brings in from
 * a backup).
 */
class BrokerInputsFuzzTest {

  /**
   * A config reader builds its catalogue of keys, every setting with its source and key suggestions
   * for unknown keys: about 8 MiB for a full file, whatever its size.
   */
  private static final long CONFIG_ALLOWANCE_BYTES = 32L * 1024 * 1024;

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void brokerConfig(byte[] input) {
    String yaml = new String(input, StandardCharsets.UTF_8);
    decodesOrRefuses(
        input.length,
        CONFIG_ALLOWANCE_BYTES,
        ConfigException.class,
        () -> BrokerConfigReader.parse(yaml, "fuzzed broker.yaml", Map.of()));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void gatewayConfig(byte[] input) {
    String yaml = new String(input, StandardCharsets.UTF_8);
    decodesOrRefuses(
        input.length,
        CONFIG_ALLOWANCE_BYTES,
        ConfigException.class,
        () -> GatewayConfigReader.parse(yaml, "fuzzed gateway.yaml", Map.of()));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void apiKeyFiles(byte[] input) throws IOException {
    Path file =
        Files.createTempFile(
            "fuzzed-api-keys",
            ".txt",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(file, input);
      decodesOrRefuses(
          input,
          InvalidApiKeyFileException.class,
          () -> ApiKeyFile.read(file, "security.auth.apiKeysFile"));
    } finally {
      Files.delete(file);
    }
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void interPartitionMessages(byte[] input) {
    decodesOrRefuses(
        input, ProtocolException.class, () -> InterPartitionCodec.decodeRequest(input));
    decodesOrRefuses(
        input, ProtocolException.class, () -> InterPartitionCodec.decodeResponse(input));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void archivePeerRecords(byte[] input) {
    decodesOrRefuses(
        input, IllegalArgumentException.class, () -> ArchivePeerRecords.decodeRequest(input, 2));
    decodesOrRefuses(
        input,
        IllegalArgumentException.class,
        () -> ArchivePeerRecords.decodeResponse(input, 21, 40));
  }

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void checkpointState(byte[] input) {
    decodesOrRefuses(
        input, IllegalStateException.class, () -> CheckpointStateCodec.decodeCheckpoint(input));
    decodesOrRefuses(
        input,
        IllegalStateException.class,
        () -> CheckpointStateCodec.decodeConfirmedBackup(input));
  }
}
