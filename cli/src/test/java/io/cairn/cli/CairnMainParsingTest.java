package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.output.Printer;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing, validation and exit codes without a gateway: no call may reach one. */
class CairnMainParsingTest {
  @TempDir Path dir;

  private final List<String> connections = new ArrayList<>();

  /** A client factory that records the address and answers UNAVAILABLE. */
  private CliContext.ClientFactory refusingClients() {
    return connection -> {
      connections.add(connection.gateway());
      throw new CairnClientException(ErrorCode.UNAVAILABLE, "no gateway in this test");
    };
  }

  private Run cairn(String... args) {
    return cairn(Map.of(), args);
  }

  private Run cairn(Map<String, String> env, String... args) {
    return CliRunner.run(env, dir, refusingClients(), args);
  }

  @Test
  void shouldListEveryCommandAndTheExitCodesInTheHelp() {
    Run help = cairn("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out())
        .contains(
            "broker",
            "gateway",
            "cluster",
            "backup",
            "restore",
            "exporting",
            "topology",
            "account",
            "load",
            "demo")
        .contains("--gateway=host:port", "--output=table|json", "CAIRN_GATEWAY")
        .contains(
            "Exit codes:",
            "0  ok",
            "2  usage or validation error",
            "3  unavailable",
            "4  not found",
            "5  conflict or already exists");
    Run sub = cairn("backup", "take", "--help");
    assertThat(sub.exitCode()).isZero();
    assertThat(sub.out()).contains("--wait", "--timeout", "Exit codes:", "--gateway");
  }

  @Test
  void shouldRefuseAMissingCommandWithUsageCode() {
    Run run = cairn();
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains("Expected a command, but got none", "cairn --help");
    assertThat(cairn("backup").err()).contains("Expected one of take, status, list, delete");
    assertThat(cairn("cluster").exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "backup take 0|Expected <id> in [1, 9223372036854775807], but was 0",
        "backup status -3|Expected <id> in [1, 9223372036854775807], but was -3",
        "backup take 5 --wait --timeout 0s|Expected --timeout in [1.0s, 1440m00s], but was 0ms",
        "backup take 5 --poll-interval 1x|Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was '1x'",
        "account deposit alice 0|Expected <amount> in [1, ",
        "account transfer alice alice 5|Expected <to> to differ from <from>, but both are 'alice'",
        "account transfer alice bob many|Invalid value for positional parameter at index 2 (<amount>): 'many'",
        "load --rate 0 --accounts 1|Expected --rate in [1, 100000], but was 0; Expected --accounts in [2, 1000000], but was 1",
        "load --max-amount 20 --initial-balance 10|Expected --max-amount in [1, 10], but was 20",
        "load --account-prefix a/b|Expected --account-prefix to be 1 to 48 of [A-Za-z0-9._-], but was 'a/b'",
        "load --retry-max-attempts 0|Expected --retry-max-attempts in [1, 1000], but was 0",
        "--request-timeout 1ms topology|Expected --request-timeout in [100ms, 10m], but was 1ms",
        "--gateway nohost topology|Expected --gateway host:port",
        "--output xml topology|Invalid value for option '--output'",
        "cluster up --replication-factor 2|Expected --replication-factor to be one of 1, 3, 5, but was 2",
        "cluster up --brokers 1|Expected --replication-factor <= --brokers (1), but was 3",
        "cluster up --base-port 65530|Expected every port in [1, 65535]",
        "cluster up --base-port 9500|Expected distinct ports",
        "broker|Missing required option: '--config=file'",
        "broker --config missing.yaml|Expected --config to name a readable file",
        "gateway --config missing.yaml|Expected --config to name a readable file",
        "account get|Missing required parameter: '<account>'",
        "topology --bogus|Unknown option: '--bogus'",
        "restore --config b.yaml|Missing required argument (specify one of these): (--backup-id=id|latest | --to-checkpoint=id | --to-time=instant)",
        "restore --backup-id 1 --to-checkpoint 2 --config b.yaml|are mutually exclusive",
        "restore --to-checkpoint 0 --config b.yaml|Expected --to-checkpoint to be a checkpoint id >= 1, but was '0'",
        "restore --to-checkpoint x --config b.yaml|Expected --to-checkpoint to be a checkpoint id >= 1, but was 'x'",
        "restore --to-time yesterday --config b.yaml|Expected --to-time to be an ISO-8601 instant such as 2026-12-02T10:15:30Z, but was 'yesterday'",
        "restore --backup-id 1|Missing required option: '--config=file'",
        "restore --backup-id 0 --config b.yaml|Expected --backup-id to be a backup id >= 1 or 'latest', but was '0'",
        "restore --backup-id newest --config b.yaml|Expected --backup-id to be a backup id >= 1 or 'latest', but was 'newest'",
        "restore --backup-id 1 --config missing.yaml|Expected --config to name a readable file, but",
        "restore --backup-id 1 --config b.yaml --allow-everything|Unknown option: '--allow-everything'",
        "restore --backup-id 1 --config missing.yaml --allow-partial|Expected --config to name a readable file, but",
        "restore --allow-partial=maybe --backup-id 1 --config b.yaml|Invalid value for option '--allow-partial'",
        "backup verify 1|Missing required option: '--config=file'",
        "backup verify --config b.yaml|Expected one of <id|latest>, --backup-id, --to-checkpoint or --to-time, but none was given",
        "backup verify 3 --to-checkpoint 3 --config b.yaml|Expected one of <id|latest>, --backup-id, --to-checkpoint or --to-time, but 2 were given",
        "backup verify 3 --backup-id 3 --config b.yaml|Expected one of <id|latest>, --backup-id, --to-checkpoint or --to-time, but 2 were given",
        "backup verify --backup-id soon --config b.yaml|Expected --backup-id to be a backup id >= 1 or 'latest', but was 'soon'",
        "backup verify --to-time soon --config b.yaml|Expected --to-time to be an ISO-8601 instant",
        "backup verify x1 --config b.yaml|Expected <id|latest> to be a backup id >= 1 or 'latest', but was 'x1'",
        "backup verify latest --quick --config missing.yaml|Expected --config to name a readable file, but",
        "cluster up --marker-interval 1s|Expected --marker-interval with --archive",
        "cluster up --archive --marker-interval 100ms|Expected --marker-interval in [1s, 59m], but was 100ms",
        "backup restore --backup-id 1 --to-checkpoint 2|mutually exclusive",
        "backup restore --to-checkpoint 0|Expected --to-checkpoint to be a checkpoint id >= 1, but was '0'",
        "backup restore --backup-id x|Expected --backup-id to be a backup id",
        "backup restore --latest|Unknown option: '--latest'",
        "cluster restore|Missing required argument (specify one of these): (--backup-id=id|latest | --to-checkpoint=id | --to-time=instant)",
        "cluster restore --to-time 2026-13-01T00:00:00Z|Expected --to-time to be an ISO-8601 instant",
        "cluster restore --backup-id -|Expected --backup-id to be a backup id >= 1 or 'latest', but was '-'",
        "cluster restore --allow-partial|Missing required argument (specify one of these)",
        "cluster restore --allow-partial --backup-id 0|Expected --backup-id to be a backup id >= 1 or 'latest', but was '0'",
      })
  void shouldRefuseInvalidInputBeforeCallingTheGateway(String args, String message) {
    Run run = cairn(args.split(" "));
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).as(run.toString()).contains("Error: ").contains(message);
    assertThat(run.out()).isEmpty();
    assertThat(connections).isEmpty();
  }

  @Test
  void shouldRefuseRestoreAndVerifyWithoutABackupStoreInTheConfiguration() throws Exception {
    io.cairn.cli.cluster.ClusterLayout layout =
        io.cairn.cli.cluster.ClusterLayout.of(1, 1, 1, "127.0.0.1", 26501, 26500, 9600);
    io.cairn.cli.cluster.ClusterDirectory cluster =
        new io.cairn.cli.cluster.ClusterDirectory(dir.resolve("c"));
    io.cairn.cli.cluster.ClusterConfigFiles.writeMissing(cluster, layout);
    String config = cluster.configFile("broker-0").toString();
    Map<String, String> disabled = Map.of("CAIRN_BACKUP_ENABLED", "false");

    Run restore = cairn(disabled, "restore", "--backup-id", "1", "--config", config);
    assertThat(restore.exitCode()).as(restore.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(restore.err())
        .contains("Expected a backup store in " + config + ", but backup.enabled is false");
    Run verify = cairn(disabled, "backup", "verify", "1", "--config", config);
    assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(ExitCode.USAGE);

    java.nio.file.Files.delete(cluster.backups());
    Run noStore = cairn("--output", "json", "backup", "verify", "1", "--config", config);
    assertThat(noStore.exitCode()).as(noStore.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(Printer.mapper().readTree(noStore.out()).path("error").path("message").asText())
        .contains("backup.fs.*");
    assertThat(cluster.dataDirectory(0)).doesNotExist();
    assertThat(connections).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "TARGET_NOT_EMPTY,5",
    "BACKUP_NOT_FOUND,4",
    "BACKUP_NOT_COMPLETED,1",
    "FILE_CORRUPTED,1",
    "STORE_FAILED,1"
  })
  void shouldMapEveryRestoreFailureToAnExitCode(
      io.cairn.restore.RestoreProblem problem, int exitCode) {
    CliException failure =
        io.cairn.cli.restore.RestoreFailures.of(
            new io.cairn.restore.RestoreException(problem, "Expected x, but y (partition 2)"));
    assertThat(failure.exitCode()).isEqualTo(exitCode);
    assertThat(failure.getMessage()).isEqualTo(problem + ": Expected x, but y (partition 2)");
  }

  @Test
  void shouldPrintAJsonErrorDocumentForUsageErrorsWithJsonOutput() throws Exception {
    Run run = cairn("--output", "json", "backup", "take", "0");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    JsonNode error = Printer.mapper().readTree(run.out()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("USAGE");
    assertThat(error.path("exitCode").asInt()).isEqualTo(2);
    assertThat(error.path("message").asText()).contains("Expected <id> in [1,");
  }

  @Test
  void shouldTakeTheGatewayFromTheOptionThenTheEnvironmentThenTheDefault() {
    assertThat(
            cairn(Map.of("CAIRN_GATEWAY", "10.1.2.3:4000"), "--gateway", "h:1", "topology")
                .exitCode())
        .isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(cairn(Map.of("CAIRN_GATEWAY", "10.1.2.3:4000"), "topology").exitCode())
        .isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(cairn("topology").exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(connections).containsExactly("h:1", "10.1.2.3:4000", "127.0.0.1:26500");

    Run bad = cairn(Map.of("CAIRN_GATEWAY", "nonsense"), "topology");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("Expected --gateway host:port", "($CAIRN_GATEWAY)");
  }

  @Test
  void shouldAcceptInheritedOptionsAfterTheSubcommand() {
    Run run = cairn("backup", "list", "--gateway", "example:26500", "--output", "JSON");
    assertThat(run.exitCode()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(connections).containsExactly("example:26500");
    assertThat(run.out()).contains("\"code\" : \"UNAVAILABLE\"", "\"exitCode\" : 3");
  }

  @ParameterizedTest
  @CsvSource({
    "INVALID_ARGUMENT,2",
    "NOT_FOUND,4",
    "ALREADY_EXISTS,5",
    "FAILED_PRECONDITION,5",
    "UNAVAILABLE,3",
    "DEADLINE_EXCEEDED,3",
    "RESOURCE_EXHAUSTED,3",
    "INTERNAL,1",
    "CANCELLED,1",
    "UNKNOWN,1"
  })
  void shouldMapEveryClientErrorToAnExitCode(ErrorCode code, int exitCode) {
    assertThat(ExitCode.of(code)).isEqualTo(exitCode);
    Run run =
        CliRunner.run(
            Map.of(),
            dir,
            connection -> {
              throw new CairnClientException(code, "refused " + code);
            },
            "topology");
    assertThat(run.exitCode()).isEqualTo(exitCode);
    assertThat(run.err()).contains("Error: " + code + ": refused " + code);
  }

  @Test
  void shouldPassTheCaFileFromTheOptionOrTheEnvironment() {
    List<Optional<Path>> seen = new ArrayList<>();
    CliContext.ClientFactory recording =
        connection -> {
          seen.add(connection.trustedCaFile());
          throw new CairnClientException(ErrorCode.UNAVAILABLE, "no gateway in this test");
        };

    CliRunner.run(Map.of(), dir, recording, "--ca-file", "certs/ca.crt", "topology");
    CliRunner.run(Map.of("CAIRN_CA_FILE", "/etc/cairn/ca.crt"), dir, recording, "topology");
    CliRunner.run(Map.of(), dir, recording, "topology");

    assertThat(seen)
        .containsExactly(
            Optional.of(dir.resolve("certs/ca.crt")),
            Optional.of(Path.of("/etc/cairn/ca.crt")),
            Optional.empty());
  }

  @Test
  void shouldReportTheVersion() {
    Run run = cairn("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("cairn ");
  }
}
