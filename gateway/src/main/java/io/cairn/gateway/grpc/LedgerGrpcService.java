package io.cairn.gateway.grpc;

import io.cairn.gateway.ledger.LedgerOperations;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.CreateAccountResponse;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.DepositResponse;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.GetAccountResponse;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.gateway.v1.TransferResponse;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.grpc.stub.StreamObserver;

/**
 * The {@code cairn.gateway.v1.LedgerService}: maps protobuf messages to {@link LedgerOperations}.
 */
public final class LedgerGrpcService extends LedgerServiceGrpc.LedgerServiceImplBase {
  private final LedgerOperations ledger;
  private final GrpcCalls calls;

  LedgerGrpcService(LedgerOperations ledger, GrpcCalls calls) {
    this.ledger = ledger;
    this.calls = calls;
  }

  @Override
  public void createAccount(
      CreateAccountRequest request, StreamObserver<CreateAccountResponse> observer) {
    calls.run(
        "CreateAccount",
        observer,
        deadline -> ledger.createAccount(request.getAccountId(), deadline),
        routed ->
            CreateAccountResponse.newBuilder()
                .setAccountId(request.getAccountId())
                .setPartitionId(routed.partitionId())
                .setPosition(routed.body().position())
                .build());
  }

  @Override
  public void deposit(DepositRequest request, StreamObserver<DepositResponse> observer) {
    calls.run(
        "Deposit",
        observer,
        deadline -> ledger.deposit(request.getAccountId(), request.getAmount(), deadline),
        routed -> {
          Record event = routed.body();
          long amount =
              event.value() instanceof DepositValue deposit
                  ? deposit.amount()
                  : request.getAmount();
          return DepositResponse.newBuilder()
              .setAccountId(request.getAccountId())
              .setAmount(amount)
              .setPartitionId(routed.partitionId())
              .setPosition(event.position())
              .build();
        });
  }

  @Override
  public void transfer(TransferRequest request, StreamObserver<TransferResponse> observer) {
    calls.run(
        "Transfer",
        observer,
        deadline ->
            ledger.transfer(
                request.getFromAccountId(),
                request.getToAccountId(),
                request.getAmount(),
                deadline),
        routed -> {
          Record event = routed.body();
          TransferResponse.Builder response =
              TransferResponse.newBuilder()
                  .setTransferKey(event.metadata().key())
                  .setSourcePartitionId(routed.partitionId())
                  .setCompleted(event.metadata().intent() == TransferIntent.COMPLETED)
                  .setPosition(event.position());
          if (event.value() instanceof TransferValue transfer) {
            response
                .setSourcePartitionId(transfer.sourcePartitionId())
                .setTargetPartitionId(transfer.targetPartitionId());
          }
          return response.build();
        });
  }

  @Override
  public void getAccount(GetAccountRequest request, StreamObserver<GetAccountResponse> observer) {
    calls.run(
        "GetAccount",
        observer,
        deadline -> ledger.getAccount(request.getAccountId(), deadline),
        routed ->
            GetAccountResponse.newBuilder()
                .setAccountId(request.getAccountId())
                .setBalance(routed.body().balance())
                .setPartitionId(routed.partitionId())
                .build());
  }
}
