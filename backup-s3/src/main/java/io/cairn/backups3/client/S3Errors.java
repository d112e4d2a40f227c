package io.cairn.backups3.client;

import io.cairn.scheduler.Futures;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Classifies what an S3 call failed with. Transient: HTTP 5xx (but 501 and 505), 408, 429,
 * throttling codes, timeouts, connection refused/reset/closed — worth retrying with backoff.
 * Everything else (403, 404, 412, 501, a malformed request) is final.
 */
public final class S3Errors {

  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "SlowDown",
          "RequestTimeout",
          "InternalError",
          "ServiceUnavailable",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded",
          "TooManyRequests",
          "Busy",
          "OperationAborted",
          "ConditionalRequestConflict");

  private S3Errors() {}

  /** The HTTP status of a service error, or -1 when the server gave no answer. */
  public static int status(Throwable error) {
    Throwable t = Futures.unwrap(error);
    if (t instanceof S3RequestException e) {
      return e.statusCode();
    }
    return t instanceof AwsServiceException e ? e.statusCode() : -1;
  }

  /** The S3 error code ("NoSuchKey", "SlowDown"), or "" when there is none. */
  public static String code(Throwable error) {
    Throwable t = Futures.unwrap(error);
    if (t instanceof S3RequestException e) {
      return e.errorCode();
    }
    if (t instanceof AwsServiceException e
        && e.awsErrorDetails() != null
        && e.awsErrorDetails().errorCode() != null) {
      return e.awsErrorDetails().errorCode();
    }
    return "";
  }

  public static boolean isNotFound(Throwable error) {
    String code = code(error);
    return status(error) == 404
        || code.equals("NoSuchKey")
        || code.equals("NoSuchBucket")
        || code.equals("NotFound");
  }

  /**
   * 412: a condition did not hold. (AWS's 409 ConditionalRequestConflict, a conditional write
   * racing another on the same key, is transient: retried, it gets its real answer.)
   */
  public static boolean isPreconditionFailed(Throwable error) {
    return status(error) == 412 || code(error).equals("PreconditionFailed");
  }

  public static boolean isTransient(Throwable error) {
    Throwable t = Futures.unwrap(error);
    if (t instanceof S3RequestException e) {
      return e.isTransient();
    }
    if (t instanceof AwsServiceException e) {
      int status = e.statusCode();
      // 501 Not Implemented and 505 are answers about the request, not the server's state.
      boolean serverError = status >= 500 && status != 501 && status != 505;
      return serverError || status == 408 || status == 429 || TRANSIENT_CODES.contains(code(e));
    }
    if (t instanceof ApiCallTimeoutException || t instanceof ApiCallAttemptTimeoutException) {
      return true;
    }
    if (t instanceof SdkClientException || t instanceof IOException) {
      for (Throwable c = t; c != null; c = c.getCause()) {
        if (c instanceof IOException
            || c instanceof TimeoutException
            || c.getClass().getName().startsWith("io.netty.")) {
          return true;
        }
      }
    }
    return false;
  }

  public static boolean isCancellation(Throwable error) {
    return Futures.unwrap(error) instanceof CancellationException;
  }

  /** "503 SlowDown: Please reduce your request rate", or the client-side failure. */
  public static String describe(Throwable error) {
    Throwable t = Futures.unwrap(error);
    if (t instanceof AwsServiceException e) {
      String code = code(e);
      String message =
          e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
              ? e.awsErrorDetails().errorMessage()
              : "";
      return e.statusCode()
          + (code.isEmpty() ? "" : " " + code)
          + (message.isEmpty() ? "" : ": " + message);
    }
    StringBuilder text = new StringBuilder(String.valueOf(t));
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != t) {
      text.append(" (caused by ").append(root).append(')');
    }
    return text.toString();
  }
}
