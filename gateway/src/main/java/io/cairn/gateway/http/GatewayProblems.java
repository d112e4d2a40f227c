package io.cairn.gateway.http;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.httpendpoints.Problem;

/** The problem detail of a gateway error: the HTTP status of its code, its message as detail. */
final class GatewayProblems {
  private GatewayProblems() {}

  static Problem of(GatewayErrorCode code, String detail) {
    return new Problem(code.httpStatus(), detail);
  }
}
