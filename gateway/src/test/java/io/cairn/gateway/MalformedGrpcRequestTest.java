package io.cairn.gateway;

import static io.cairn.gateway.LedgerApiTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DeleteBackupRequest;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.protocol.api.ApiDescriptor;
import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every malformed gRPC request is refused at the gateway with INVALID_ARGUMENT (or
 * RESOURCE_EXHAUSTED for an oversized message) naming the field, the bad value and the rule;
 * nothing reaches a broker; nothing is logged above DEBUG.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class MalformedGrpcRequestTest {
  private static final String ID_RULE =
      "1 to 128 UTF-8 bytes without control characters and without leading or trailing whitespace";
  private GatewayHarness harness;
  private LogCapture logs;

  @BeforeAll
  void start() {
    // Topology refreshes only on demand (reset): a periodic one slowed down by a loaded machine
    // could time out and log the change at INFO, which these tests check does not happen.
    harness =
        new GatewayHarness(3, 2, config -> config.topologyRefreshInterval(Duration.ofMinutes(1)))
            .awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void capture() {
    harness.reset();
    logs = new LogCapture();
  }

  @AfterEach
  void checkNothingHappened() {
    try {
      assertThat(harness.commandsReceived()).as("commands that reached a broker").isZero();
      assertThat(
              harness.brokers.stream()
                  .mapToInt(
                      b ->
                          b.requests(ApiDescriptor.TYPE_BACKUP)
                              + b.requests(ApiDescriptor.TYPE_QUERY_ACCOUNT))
                  .sum())
          .as("queries that reached a broker")
          .isZero();
      // Topology changes are logged at INFO by design; none happen during these tests.
      assertThat(logs.atOrAbove(Level.INFO)).as("log events above DEBUG").isEmpty();
    } finally {
      logs.close();
    }
  }

  @Test
  void shouldRejectAnEmptyAccountId() {
    assertStatus(
        () -> harness.ledger.createAccount(CreateAccountRequest.getDefaultInstance()),
        Status.Code.INVALID_ARGUMENT,
        "Expected accountId of " + ID_RULE + ", but was '' (0 bytes) (CreateAccount)");
  }

  @Test
  void shouldRejectAnOversizedAccountIdShowingItShortened() {
    assertStatus(
        () ->
            harness.ledger.createAccount(
                CreateAccountRequest.newBuilder().setAccountId("ü".repeat(65)).build()),
        Status.Code.INVALID_ARGUMENT,
        "but was '" + "ü".repeat(64) + "...' (130 bytes) (CreateAccount)");
  }

  @Test
  void shouldRejectControlCharactersAndOuterWhitespaceEscaped() {
    assertStatus(
        () ->
            harness.ledger.getAccount(
                GetAccountRequest.newBuilder().setAccountId("a\u0007b").build()),
        Status.Code.INVALID_ARGUMENT,
        "but was 'a\\u0007b' (3 bytes) (GetAccount)");
    assertStatus(
        () ->
            harness.ledger.getAccount(
                GetAccountRequest.newBuilder().setAccountId(" alice").build()),
        Status.Code.INVALID_ARGUMENT,
        "but was ' alice' (6 bytes) (GetAccount)");
  }

  @Test
  void shouldRejectANonPositiveOrMissingAmount() {
    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId("alice").setAmount(-5).build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected amount > 0, but was -5 (Deposit)");
    assertStatus(
        () -> harness.ledger.deposit(DepositRequest.newBuilder().setAccountId("alice").build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected amount > 0, but was 0 (Deposit)");
    assertThat(logs.events())
        .anySatisfy(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.DEBUG);
              assertThat(event.getFormattedMessage())
                  .contains("Expected amount > 0, but was -5 (Deposit)");
            });
  }

  @Test
  void shouldListEveryViolationOfATransfer() {
    assertStatus(
        () ->
            harness.ledger.transfer(
                TransferRequest.newBuilder()
                    .setFromAccountId("")
                    .setToAccountId("b\n")
                    .setAmount(0)
                    .build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected fromAccountId of "
            + ID_RULE
            + ", but was '' (0 bytes) (Transfer); "
            + "Expected toAccountId of "
            + ID_RULE
            + ", but was 'b\\u000a' (2 bytes) (Transfer); "
            + "Expected amount > 0, but was 0 (Transfer)");
  }

  @Test
  void shouldRejectATransferToTheSameAccount() {
    assertStatus(
        () ->
            harness.ledger.transfer(
                TransferRequest.newBuilder()
                    .setFromAccountId("alice")
                    .setToAccountId("alice")
                    .setAmount(5)
                    .build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected fromAccountId and toAccountId to differ, but both are 'alice' (Transfer)");
  }

  @Test
  void shouldRejectAnOversizedMessage() {
    assertStatus(
        () ->
            harness.ledger.createAccount(
                CreateAccountRequest.newBuilder().setAccountId("x".repeat(70_000)).build()),
        Status.Code.RESOURCE_EXHAUSTED,
        "65536");
  }

  @Test
  void shouldRejectNonPositiveBackupIds() {
    assertStatus(
        () -> harness.admin.takeBackup(TakeBackupRequest.newBuilder().setBackupId(-3).build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected backupId >= 1, but was -3 (TakeBackup)");
    assertStatus(
        () -> harness.admin.getBackup(GetBackupRequest.getDefaultInstance()),
        Status.Code.INVALID_ARGUMENT,
        "Expected backupId >= 1, but was 0 (GetBackup)");
    assertStatus(
        () -> harness.admin.deleteBackup(DeleteBackupRequest.newBuilder().setBackupId(-1).build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected backupId >= 1, but was -1 (DeleteBackup)");
  }

  @Test
  void shouldRejectABadPageSizeOrToken() {
    assertStatus(
        () -> harness.admin.listBackups(ListBackupsRequest.newBuilder().setPageSize(1001).build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected pageSize in [0, 1000] (0 = 100), but was 1001 (ListBackups)");
    assertStatus(
        () ->
            harness.admin.listBackups(ListBackupsRequest.newBuilder().setPageToken("abc").build()),
        Status.Code.INVALID_ARGUMENT,
        "Expected pageToken to be empty or the nextPageToken of a previous page, but was 'abc'"
            + " (ListBackups)");
  }
}
