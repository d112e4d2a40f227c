package io.cairn.qa.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Asserts how a call failed. */
public final class Calls {

  private Calls() {}

  /** Runs {@code call}, asserts it threw a {@link CairnClientException} with {@code code}. */
  public static CairnClientException clientFailure(ErrorCode code, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(CairnClientException.class);
    CairnClientException failure = (CairnClientException) thrown;
    assertThat(failure.code()).as("code of %s", failure.getMessage()).isEqualTo(code);
    return failure;
  }

  /**
   * Whether a backup query failed only for now: NOT_FOUND right after TakeBackup (no partition
   * wrote its status yet), UNAVAILABLE while the gateway knows no leader for some partition.
   */
  public static boolean notYet(Throwable e) {
    return e instanceof CairnClientException failure
        && (failure.code() == ErrorCode.NOT_FOUND || failure.code() == ErrorCode.UNAVAILABLE);
  }

  /** Runs a raw stub {@code call}, asserts it failed with {@code code}; returns the status. */
  public static Status grpcFailure(Status.Code code, ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(StatusRuntimeException.class);
    Status status = ((StatusRuntimeException) thrown).getStatus();
    assertThat(status.getCode()).as("code of %s", status).isEqualTo(code);
    assertThat(status.getDescription()).as("description of %s", status).isNotBlank();
    return status;
  }
}
