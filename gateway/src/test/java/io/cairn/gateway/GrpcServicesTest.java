package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Reflection (what generic clients such as buf curl use) and the standard health service. */
final class GrpcServicesTest {

  @Test
  void shouldListEveryServiceThroughReflection() throws Exception {
    try (GatewayHarness harness = new GatewayHarness()) {
      CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
      StreamObserver<ServerReflectionRequest> requests =
          ServerReflectionGrpc.newStub(harness.channel)
              .serverReflectionInfo(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse value) {
                      answer.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                      answer.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {}
                  });
      requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
      requests.onCompleted();

      List<String> services =
          answer.get(10, TimeUnit.SECONDS).getListServicesResponse().getServiceList().stream()
              .map(ServiceResponse::getName)
              .toList();
      assertThat(services)
          .contains(
              "cairn.gateway.v1.LedgerService",
              "cairn.gateway.v1.AdminService",
              "grpc.health.v1.Health",
              "grpc.reflection.v1.ServerReflection");
    }
  }

  @Test
  void shouldServeLedgerOnlyWhileEveryPartitionHasALeader() {
    try (GatewayHarness harness = new GatewayHarness()) {
      HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(harness.channel);
      harness.awaitReady();
      assertThat(health.check(HealthCheckRequest.getDefaultInstance()).getStatus())
          .isEqualTo(ServingStatus.SERVING);
      await()
          .atMost(GatewayHarness.WAIT)
          .until(
              () ->
                  health
                          .check(
                              HealthCheckRequest.newBuilder()
                                  .setService("cairn.gateway.v1.LedgerService")
                                  .build())
                          .getStatus()
                      == ServingStatus.SERVING);

      harness.broker(1).follow(2, 2);

      await()
          .atMost(GatewayHarness.WAIT)
          .until(
              () ->
                  health
                          .check(
                              HealthCheckRequest.newBuilder()
                                  .setService("cairn.gateway.v1.AdminService")
                                  .build())
                          .getStatus()
                      == ServingStatus.NOT_SERVING);
    }
  }
}
