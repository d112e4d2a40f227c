package io.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

final class AuthorizerTest {

  private static final Principal CLIENT =
      new Principal("billing", Set.of(Role.CLIENT), AuthMethod.API_KEY);
  private static final Principal ADMIN =
      new Principal("ops.alice", Set.of(Role.ADMIN), AuthMethod.JWT);
  private static final Principal NO_ROLES = new Principal("guest", Set.of(), AuthMethod.JWT);

  @Test
  void shouldLetAdminGrantClientButNotTheOtherWayRound() {
    assertThat(Role.ADMIN.grants(Role.CLIENT)).isTrue();
    assertThat(Role.ADMIN.grants(Role.ADMIN)).isTrue();
    assertThat(Role.CLIENT.grants(Role.CLIENT)).isTrue();
    assertThat(Role.CLIENT.grants(Role.ADMIN)).isFalse();
  }

  @Test
  void shouldForbidAClientAnAdminOperationNamingTheRoleItNeeds() {
    // when
    Authorization decision = Authorizer.authorize(CLIENT, GatewayOperations.TAKE_BACKUP);

    // then
    assertThat(decision.allowed()).isFalse();
    Authorization.Forbidden forbidden = (Authorization.Forbidden) decision;
    assertThat(forbidden.publicMessage())
        .isEqualTo(
            "Expected role admin for TakeBackup, but the caller's roles are: client. Use"
                + " credentials with role admin");
    assertThat(forbidden.reason())
        .isEqualTo("billing (api-key) holds roles [client], TakeBackup needs admin");
  }

  @Test
  void shouldAllowAClientEveryLedgerOperation() {
    assertThat(GatewayOperations.LEDGER)
        .allSatisfy(op -> assertThat(Authorizer.authorize(CLIENT, op).allowed()).isTrue());
    assertThat(GatewayOperations.ADMIN)
        .allSatisfy(op -> assertThat(Authorizer.authorize(CLIENT, op).allowed()).isFalse());
  }

  @Test
  void shouldAllowAnAdminEveryOperation() {
    assertThat(Stream.concat(GatewayOperations.LEDGER.stream(), GatewayOperations.ADMIN.stream()))
        .allSatisfy(op -> assertThat(Authorizer.authorize(ADMIN, op).allowed()).isTrue());
  }

  @Test
  void shouldForbidAPrincipalWithoutRolesEverything() {
    Authorization decision = Authorizer.authorize(NO_ROLES, GatewayOperations.GET_ACCOUNT);

    assertThat(decision.allowed()).isFalse();
    assertThat(((Authorization.Forbidden) decision).publicMessage())
        .isEqualTo(
            "Expected role client for GetAccount, but the caller's roles are: none. Use credentials"
                + " with role client");
  }

  @Test
  void shouldLetTheAnonymousCallerDoEverythingAsBeforeAuthentication() {
    Principal anonymous = Principal.anonymous();

    assertThat(anonymous.method()).isEqualTo(AuthMethod.NONE);
    assertThat(Authorizer.authorize(anonymous, GatewayOperations.DELETE_BACKUP).allowed()).isTrue();
    assertThat(Authorizer.authorize(anonymous, GatewayOperations.TRANSFER).allowed()).isTrue();
  }

  @Test
  void shouldMapGrpcMethodsToTheirOperationsAndUnlistedOnesToAdmin() {
    assertThat(GatewayOperations.forGrpcMethod("cairn.gateway.v1.LedgerService/Transfer"))
        .isEqualTo(GatewayOperations.TRANSFER);
    assertThat(GatewayOperations.forGrpcMethod("cairn.gateway.v1.AdminService/DeleteBackup"))
        .isEqualTo(GatewayOperations.DELETE_BACKUP);
    // a ledger name under the admin service is not the ledger operation
    assertThat(GatewayOperations.forGrpcMethod("cairn.gateway.v1.AdminService/Transfer"))
        .isEqualTo(Operation.admin("cairn.gateway.v1.AdminService/Transfer"));
    assertThat(
            GatewayOperations.forGrpcMethod(
                    "grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
                .requiredRole())
        .isEqualTo(Role.ADMIN);
  }

  /** The table must follow the .proto files: an RPC added there and not here would take admin. */
  @Test
  void shouldListEveryRpcOfTheGatewayServices() throws IOException {
    Path protos = Path.of("..", "gateway-api", "src", "main", "proto", "cairn", "gateway", "v1");

    assertThat(rpcs(protos.resolve("ledger.proto")))
        .containsExactlyElementsOf(GatewayOperations.LEDGER.stream().map(Operation::name).toList());
    assertThat(rpcs(protos.resolve("admin.proto")))
        .containsExactlyElementsOf(GatewayOperations.ADMIN.stream().map(Operation::name).toList());
  }

  private static List<String> rpcs(Path proto) throws IOException {
    Matcher rpc = Pattern.compile("(?m)^\\s*rpc\\s+(\\w+)\\s*\\(").matcher(Files.readString(proto));
    return rpc.results().map(m -> m.group(1)).toList();
  }

  @Test
  void shouldReadRoleIdsCaseInsensitively() {
    assertThat(Role.fromId("Admin")).contains(Role.ADMIN);
    assertThat(Role.fromId(" client ")).contains(Role.CLIENT);
    assertThat(Role.fromId("root")).isEmpty();
  }
}
