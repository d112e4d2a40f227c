package io.cairn.auth;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The gateway's gRPC operations and the role each takes, in one table, so that the interceptor in
 * front of the services and the operator's documentation cannot drift apart. Names are the RPC
 * names of {@code cairn.gateway.v1}, the same the gateway's meters use.
 *
 * <p>Ledger calls ({@code LedgerService}) take {@link Role#CLIENT}; admin calls ({@code
 * AdminService}: backups, exporting, topology) take {@link Role#ADMIN}. A method of neither service
 * (gRPC reflection, a method added later and not listed here) takes {@code ADMIN}: what is not
 * listed is refused to clients rather than silently opened. Whether the health service is answered
 * without credentials (probes usually have none) is the interceptor's choice, not this table's.
 */
public final class GatewayOperations {

  /** The ledger service's full name (the proto package and service). */
  public static final String LEDGER_SERVICE = "cairn.gateway.v1.LedgerService";

  /** The admin service's full name. */
  public static final String ADMIN_SERVICE = "cairn.gateway.v1.AdminService";

  public static final Operation CREATE_ACCOUNT = Operation.client("CreateAccount");
  public static final Operation DEPOSIT = Operation.client("Deposit");
  public static final Operation TRANSFER = Operation.client("Transfer");
  public static final Operation GET_ACCOUNT = Operation.client("GetAccount");

  public static final Operation TAKE_BACKUP = Operation.admin("TakeBackup");
  public static final Operation GET_BACKUP = Operation.admin("GetBackup");
  public static final Operation LIST_BACKUPS = Operation.admin("ListBackups");
  public static final Operation DELETE_BACKUP = Operation.admin("DeleteBackup");
  public static final Operation GET_BACKUP_SCHEDULE = Operation.admin("GetBackupSchedule");
  public static final Operation PAUSE_EXPORTING = Operation.admin("PauseExporting");
  public static final Operation RESUME_EXPORTING = Operation.admin("ResumeExporting");
  public static final Operation GET_TOPOLOGY = Operation.admin("GetTopology");
  public static final Operation RESTORE = Operation.admin("Restore");
  public static final Operation GET_RESTORE_STATUS = Operation.admin("GetRestoreStatus");
  public static final Operation LIST_RESTORE_POINTS = Operation.admin("ListRestorePoints");

  /** Every ledger operation, in the order of {@code ledger.proto}. */
  public static final List<Operation> LEDGER =
      List.of(CREATE_ACCOUNT, DEPOSIT, TRANSFER, GET_ACCOUNT);

  /** Every admin operation, in the order of {@code admin.proto}. */
  public static final List<Operation> ADMIN =
      List.of(
          TAKE_BACKUP,
          GET_BACKUP,
          LIST_BACKUPS,
          DELETE_BACKUP,
          GET_BACKUP_SCHEDULE,
          PAUSE_EXPORTING,
          RESUME_EXPORTING,
          GET_TOPOLOGY,
          RESTORE,
          GET_RESTORE_STATUS,
          LIST_RESTORE_POINTS);

  /** Full gRPC method name ({@code service/method}) → operation. */
  private static final Map<String, Operation> BY_METHOD =
      Stream.concat(
              LEDGER.stream().map(o -> Map.entry(LEDGER_SERVICE + "/" + o.name(), o)),
              ADMIN.stream().map(o -> Map.entry(ADMIN_SERVICE + "/" + o.name(), o)))
          .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));

  private GatewayOperations() {}

  /**
   * The operation of a gRPC call.
   *
   * @param fullMethodName as gRPC names it: {@code cairn.gateway.v1.LedgerService/Transfer}
   * @return the listed operation; for a method not listed, an operation named by the full method
   *     name that takes {@link Role#ADMIN}
   */
  public static Operation forGrpcMethod(String fullMethodName) {
    Operation listed = BY_METHOD.get(fullMethodName);
    return listed != null ? listed : Operation.admin(fullMethodName);
  }
}
