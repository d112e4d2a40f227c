package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.ValueDescriptor;

/** Encodes and decodes {@link ApiDescriptor#TYPE_QUERY_ACCOUNT} messages. Stateless. */
public final class AccountQueryCodec {
  private static final String REQUEST = ApiDescriptor.TYPE_QUERY_ACCOUNT + " request";
  private static final String RESPONSE = ApiDescriptor.TYPE_QUERY_ACCOUNT + " response";

  private AccountQueryCodec() {}

  /**
   * @throws ProtocolException if the account id is empty, too long or not encodable
   */
  public static byte[] encodeRequest(AccountQuery query) {
    PayloadWriter writer = PayloadWriter.start();
    writer.writeInt(query.partitionId());
    writer.writeString(query.accountId(), 1, ValueDescriptor.ACCOUNT_ID_MAX_BYTES, "account id");
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid request
   */
  public static AccountQuery decodeRequest(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, REQUEST);
    int partitionId = reader.readPartitionId("partition id");
    String accountId = reader.readString(1, ValueDescriptor.ACCOUNT_ID_MAX_BYTES, "account id");
    reader.finish();
    return new AccountQuery(partitionId, accountId);
  }

  public static byte[] encodeResponse(ApiResponse<AccountBalance> response) {
    PayloadWriter writer = PayloadWriter.startResponse(response);
    if (response instanceof ApiResponse.Ok<AccountBalance> ok) {
      writer.writeBoolean(ok.body().found());
      writer.writeLong(ok.body().balance());
    }
    return writer.toBytes();
  }

  /**
   * @throws ProtocolException if the payload is not exactly one valid response
   */
  public static ApiResponse<AccountBalance> decodeResponse(byte[] payload) {
    PayloadReader reader = PayloadReader.start(payload, RESPONSE);
    return reader.readResponse(
        body -> {
          boolean found = body.readBoolean("found flag");
          long balance = body.readLong("balance");
          if (!found && balance != 0) {
            throw body.invalid("balance 0 for an account that was not found", balance);
          }
          return new AccountBalance(found, balance);
        });
  }
}
