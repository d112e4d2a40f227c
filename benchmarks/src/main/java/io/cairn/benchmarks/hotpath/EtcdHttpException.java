package io.cairn.benchmarks.hotpath;

/** An etcd gateway answer other than 200, counted as {@code HTTP <status>}. */
final class EtcdHttpException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;

  EtcdHttpException(int status, String body) {
    super("Expected HTTP 200 from etcd, but was " + status + ": " + body);
    this.status = status;
  }

  int status() {
    return status;
  }
}
