package io.cairn.protocol;

import java.util.Objects;

/**
 * The metadata of a log record (DESIGN.md §4). The value type is the intent's ({@link
 * #valueType()}), so the two cannot disagree.
 *
 * <p>The constructor checks that the fields fit together: a {@link RecordType#COMMAND} carries a
 * command intent, an {@link RecordType#EVENT} an event intent, and both carry {@link
 * RejectionType#NONE} and an empty reason; a {@link RecordType#REJECTION} carries the rejected
 * command's intent and a rejection type other than {@code NONE}. The codec additionally bounds the
 * reason to {@link RecordDescriptor#REJECTION_REASON_MAX_BYTES} bytes of UTF-8.
 *
 * @param position the record's position in its partition's stream, strictly increasing, assigned
 *     when written; {@link #NO_POSITION} before that
 * @param sourcePosition the position of the command that caused this record, or {@link
 *     #NO_POSITION}
 * @param key the key of the entity the record is about (for example the transfer key), or {@link
 *     #NO_KEY}
 * @param timestamp epoch milliseconds, or {@link #NO_TIMESTAMP}
 * @param recordType command, event or rejection
 * @param intent the intent; determines the value type
 * @param rejectionType why a command was rejected; {@link RejectionType#NONE} unless a rejection
 * @param rejectionReason a human-readable reason; empty unless a rejection
 * @param requestId the id of the client request to answer, or {@link #NO_REQUEST_ID}
 * @param requestStreamId the id of the stream (gateway connection) to answer on, or {@link
 *     #NO_REQUEST_STREAM_ID}
 * @param checkpointId the sender's latest checkpoint id, stamped on inter-partition commands, or
 *     {@link #NO_CHECKPOINT_ID}
 */
public record RecordMetadata(
    long position,
    long sourcePosition,
    long key,
    long timestamp,
    RecordType recordType,
    Intent intent,
    RejectionType rejectionType,
    String rejectionReason,
    long requestId,
    int requestStreamId,
    long checkpointId) {

  /** No position assigned (yet), or no source record. */
  public static final long NO_POSITION = -1L;

  /** No entity key. */
  public static final long NO_KEY = -1L;

  /** No timestamp. */
  public static final long NO_TIMESTAMP = -1L;

  /** No client request to answer. */
  public static final long NO_REQUEST_ID = -1L;

  /** No request stream to answer on. */
  public static final int NO_REQUEST_STREAM_ID = -1;

  /** No checkpoint id stamped. */
  public static final long NO_CHECKPOINT_ID = -1L;

  /**
   * @throws NullPointerException if a reference field is null
   * @throws IllegalArgumentException if the record type, intent and rejection do not fit together
   */
  public RecordMetadata {
    Objects.requireNonNull(recordType, "recordType");
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(rejectionType, "rejectionType");
    Objects.requireNonNull(rejectionReason, "rejectionReason");
    String violation = inconsistency(recordType, intent, rejectionType, rejectionReason.isEmpty());
    if (violation != null) {
      throw new IllegalArgumentException(violation);
    }
  }

  /** The value type of the record, the one its intent belongs to. */
  public ValueType valueType() {
    return intent.valueType();
  }

  /** A builder with every optional field at its "none" value. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder preset with this metadata's fields. */
  public Builder toBuilder() {
    return new Builder()
        .position(position)
        .sourcePosition(sourcePosition)
        .key(key)
        .timestamp(timestamp)
        .recordType(recordType)
        .intent(intent)
        .rejection(rejectionType, rejectionReason)
        .requestId(requestId)
        .requestStreamId(requestStreamId)
        .checkpointId(checkpointId);
  }

  /**
   * Describes why the fields do not fit together, or returns {@code null} if they do. Shared by the
   * constructor and the decoder, which must report the same rule as a {@link ProtocolException}.
   */
  static String inconsistency(
      RecordType recordType, Intent intent, RejectionType rejectionType, boolean reasonEmpty) {
    return switch (recordType) {
      case COMMAND, EVENT -> {
        boolean expectEvent = recordType == RecordType.EVENT;
        if (intent.isEvent() != expectEvent) {
          yield "Expected "
              + (expectEvent ? "an event" : "a command")
              + " intent in "
              + withArticle(recordType)
              + ", but was "
              + intent.valueType()
              + " "
              + intent.name();
        }
        if (rejectionType != RejectionType.NONE || !reasonEmpty) {
          yield "Expected rejection type NONE and no reason in "
              + withArticle(recordType)
              + ", but was "
              + rejectionType
              + (reasonEmpty ? " without a reason" : " with a reason");
        }
        yield null;
      }
      case REJECTION -> {
        if (intent.isEvent()) {
          yield "Expected the rejected command's intent in a REJECTION, but was the event intent "
              + intent.valueType()
              + " "
              + intent.name();
        }
        if (rejectionType == RejectionType.NONE) {
          yield "Expected a rejection type other than NONE in a REJECTION, but was NONE";
        }
        yield null;
      }
    };
  }

  private static String withArticle(RecordType recordType) {
    return (recordType == RecordType.EVENT ? "an " : "a ") + recordType;
  }

  /** Builds {@link RecordMetadata}; {@code recordType} and {@code intent} are required. */
  public static final class Builder {
    private long position = NO_POSITION;
    private long sourcePosition = NO_POSITION;
    private long key = NO_KEY;
    private long timestamp = NO_TIMESTAMP;
    private RecordType recordType;
    private Intent intent;
    private RejectionType rejectionType = RejectionType.NONE;
    private String rejectionReason = "";
    private long requestId = NO_REQUEST_ID;
    private int requestStreamId = NO_REQUEST_STREAM_ID;
    private long checkpointId = NO_CHECKPOINT_ID;

    private Builder() {}

    public Builder position(long position) {
      this.position = position;
      return this;
    }

    public Builder sourcePosition(long sourcePosition) {
      this.sourcePosition = sourcePosition;
      return this;
    }

    public Builder key(long key) {
      this.key = key;
      return this;
    }

    public Builder timestamp(long timestamp) {
      this.timestamp = timestamp;
      return this;
    }

    public Builder recordType(RecordType recordType) {
      this.recordType = recordType;
      return this;
    }

    public Builder intent(Intent intent) {
      this.intent = intent;
      return this;
    }

    /** Shorthand for a {@link RecordType#COMMAND} with this intent. */
    public Builder command(Intent intent) {
      return recordType(RecordType.COMMAND).intent(intent);
    }

    /** Shorthand for an {@link RecordType#EVENT} with this intent. */
    public Builder event(Intent intent) {
      return recordType(RecordType.EVENT).intent(intent);
    }

    /** Shorthand for a {@link RecordType#REJECTION} of a command with this intent. */
    public Builder rejection(Intent commandIntent, RejectionType rejectionType, String reason) {
      return recordType(RecordType.REJECTION)
          .intent(commandIntent)
          .rejection(rejectionType, reason);
    }

    public Builder rejection(RejectionType rejectionType, String rejectionReason) {
      this.rejectionType = rejectionType;
      this.rejectionReason = rejectionReason;
      return this;
    }

    public Builder requestId(long requestId) {
      this.requestId = requestId;
      return this;
    }

    public Builder requestStreamId(int requestStreamId) {
      this.requestStreamId = requestStreamId;
      return this;
    }

    public Builder checkpointId(long checkpointId) {
      this.checkpointId = checkpointId;
      return this;
    }

    /**
     * @throws NullPointerException if the record type or intent is missing
     * @throws IllegalArgumentException if the fields do not fit together
     */
    public RecordMetadata build() {
      return new RecordMetadata(
          position,
          sourcePosition,
          key,
          timestamp,
          recordType,
          intent,
          rejectionType,
          rejectionReason,
          requestId,
          requestStreamId,
          checkpointId);
    }
  }
}
