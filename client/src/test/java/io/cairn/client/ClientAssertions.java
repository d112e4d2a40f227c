package io.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions shared by the client's tests. */
final class ClientAssertions {
  private ClientAssertions() {}

  /** The call throws a {@link CairnClientException} with {@code code} and the message part. */
  static void assertFailure(ThrowingCallable call, ErrorCode code, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOf(CairnClientException.class)
        .hasMessageContaining(messagePart)
        .satisfies(e -> assertThat(((CairnClientException) e).code()).isEqualTo(code));
  }
}
