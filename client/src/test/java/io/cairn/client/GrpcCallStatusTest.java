package io.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How a failed call's status becomes a {@link CairnClientException}: a DEADLINE_EXCEEDED reads the
 * same whether this client's timer or the gateway's answer (the gateway's budget is what the client
 * had left) came first.
 */
final class GrpcCallStatusTest {
  private static final HostPort GATEWAY = HostPort.parse("gateway", "127.0.0.1:26500");
  private static final Duration TIMEOUT = Duration.ofMillis(300);
  private static final String GATEWAY_ANSWER =
      "Expected an answer from broker 0 (CreateAccount on"
          + " partition 1) within 297 ms, but none came; the command may or may not have been applied";

  @Test
  void shouldReportTheClientsTimeoutWhenTheGatewayAnswersDeadlineExceededAfterTheDeadline() {
    CairnClientException failure =
        GrpcCall.fromStatus(
            Status.DEADLINE_EXCEEDED.withDescription(GATEWAY_ANSWER),
            "CreateAccount",
            GATEWAY,
            TIMEOUT,
            true,
            null);

    assertThat(failure.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
    assertThat(failure.getMessage())
        .startsWith("Expected an answer to CreateAccount within 300 ms, but none came (")
        .contains(GATEWAY_ANSWER)
        .endsWith("); the outcome is unknown");
  }

  @Test
  void shouldReportTheClientsTimeoutWhenItsOwnTimerFired() {
    CairnClientException failure =
        GrpcCall.fromStatus(
            Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded after 0.299s"),
            "CreateAccount",
            GATEWAY,
            TIMEOUT,
            false,
            null);

    assertThat(failure.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
    assertThat(failure.getMessage())
        .startsWith("Expected an answer to CreateAccount within 300 ms, but none came");
  }

  @Test
  void shouldPassTheGatewaysAnswerOnBeforeTheClientsDeadline() {
    CairnClientException failure =
        GrpcCall.fromStatus(
            Status.DEADLINE_EXCEEDED.withDescription(GATEWAY_ANSWER),
            "CreateAccount",
            GATEWAY,
            Duration.ofSeconds(20),
            false,
            null);

    assertThat(failure.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
    assertThat(failure.getMessage()).isEqualTo(GATEWAY_ANSWER);
  }
}
