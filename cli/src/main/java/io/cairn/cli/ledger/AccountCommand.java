package io.cairn.cli.ledger;

import io.cairn.cli.ClientCommand;
import io.cairn.cli.output.Printer;
import io.cairn.cli.output.Table;
import io.cairn.client.Account;
import io.cairn.client.AccountCreated;
import io.cairn.client.CairnClient;
import io.cairn.client.Deposited;
import io.cairn.client.TransferAccepted;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code cairn account create|deposit|transfer|get}: the ledger API, one call each. */
@Command(
    name = "account",
    description = "Ledger operations: create an account, deposit, transfer, read a balance.",
    subcommands = {
      AccountCommand.Create.class,
      AccountCommand.Deposit.class,
      AccountCommand.Transfer.class,
      AccountCommand.Get.class
    })
public final class AccountCommand implements Runnable {

  /** Upper bound of one amount; the engine refuses overflowing balances itself. */
  static final long AMOUNT_MAX = Long.MAX_VALUE / 4;

  @picocli.CommandLine.Spec private picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "Expected one of create, deposit, transfer, get, but got none");
  }

  @Command(name = "create", description = "Creates an account (exit code 5 if it exists).")
  static final class Create extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<account>", description = "The new account's id.")
    String accountId;

    @Override
    protected int run(CairnClient client, Printer printer) {
      AccountCreated created = client.createAccount(accountId);
      printer.result(
          created,
          out ->
              Table.of("account", "partition", "position")
                  .row(created.accountId(), created.partitionId(), created.position())
                  .print(out));
      return 0;
    }
  }

  @Command(name = "deposit", description = "Deposits (mints) an amount into an account.")
  static final class Deposit extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<account>")
    String accountId;

    @Parameters(index = "1", paramLabel = "<amount>", description = "A positive whole amount.")
    long amount;

    @Override
    protected void validate() {
      checkRange("<amount>", amount, 1, AMOUNT_MAX);
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      Deposited deposited = client.deposit(accountId, amount);
      printer.result(
          deposited,
          out ->
              Table.of("account", "amount", "partition", "position")
                  .row(
                      deposited.accountId(),
                      deposited.amount(),
                      deposited.partitionId(),
                      deposited.position())
                  .print(out));
      return 0;
    }
  }

  @Command(
      name = "transfer",
      description = "Moves an amount between two accounts (exit code 5 on insufficient funds).")
  static final class Transfer extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<from>")
    String from;

    @Parameters(index = "1", paramLabel = "<to>")
    String to;

    @Parameters(index = "2", paramLabel = "<amount>", description = "A positive whole amount.")
    long amount;

    @Override
    protected void validate() {
      checkRange("<amount>", amount, 1, AMOUNT_MAX);
      if (from.equals(to)) {
        throw invalid("Expected <to> to differ from <from>, but both are '" + from + "'");
      }
    }

    @Override
    protected int run(CairnClient client, Printer printer) {
      TransferAccepted accepted = client.transfer(from, to, amount);
      printer.result(
          accepted,
          out ->
              Table.of("transfer", "from", "to", "amount", "completed")
                  .row(
                      accepted.transferKey(),
                      from + " (p" + accepted.sourcePartitionId() + ")",
                      to + " (p" + accepted.targetPartitionId() + ")",
                      amount,
                      accepted.completed() ? "yes" : "pending credit")
                  .print(out));
      return 0;
    }
  }

  @Command(name = "get", description = "Reads an account's balance (exit code 4 if unknown).")
  static final class Get extends ClientCommand {
    @Parameters(index = "0", paramLabel = "<account>")
    String accountId;

    @Override
    protected int run(CairnClient client, Printer printer) {
      Account account = client.getAccount(accountId);
      printer.result(
          account,
          out ->
              Table.of("account", "balance", "partition")
                  .row(account.accountId(), account.balance(), account.partitionId())
                  .print(out));
      return 0;
    }
  }
}
