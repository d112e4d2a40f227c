package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import java.util.Objects;

/**
 * A {@link ApiDescriptor#TYPE_RESTORE} request: how a broker's restore stands, or start one from a
 * selection of the backup store.
 *
 * @param kind what is asked
 * @param value the backup id ({@link Kind#BACKUP_ID}), the restore point id ({@link
 *     Kind#CHECKPOINT_ID}) or the time in epoch ms ({@link Kind#TIME}); 0 for the others
 */
public record RestoreRequest(Kind kind, long value) {

  /** What a request asks, with its stable wire code. */
  public enum Kind {
    /** How the restore stands; changes nothing. */
    STATUS(0),
    /** Restore the newest backup completed on every partition. */
    LATEST(1),
    /** Restore backup {@code value}. */
    BACKUP_ID(2),
    /** Restore to restore point {@code value} (a backup before it and the log archive). */
    CHECKPOINT_ID(3),
    /** Restore to the newest restore point at or before {@code value} (epoch ms). */
    TIME(4);

    private final int code;

    Kind(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    static Kind fromCode(int code) {
      for (Kind kind : values()) {
        if (kind.code == code) {
          return kind;
        }
      }
      throw new ProtocolException(
          "Expected a restore request kind in [0, " + (values().length - 1) + "], but was " + code);
    }
  }

  public RestoreRequest {
    Objects.requireNonNull(kind, "kind");
    boolean valued = kind == Kind.BACKUP_ID || kind == Kind.CHECKPOINT_ID || kind == Kind.TIME;
    if (valued && value < 1) {
      throw new IllegalArgumentException(
          "Expected a value >= 1 for a restore by " + kind + ", but was " + value);
    }
    if (!valued && value != 0) {
      throw new IllegalArgumentException(
          "Expected no value (0) for a restore request " + kind + ", but was " + value);
    }
  }

  public static RestoreRequest status() {
    return new RestoreRequest(Kind.STATUS, 0);
  }

  /** Whether this asks to start a restore. */
  public boolean isStart() {
    return kind != Kind.STATUS;
  }

  /** The selection as an operator reads it: {@code backup 5}, {@code the latest backup}, ... */
  public String describe() {
    return switch (kind) {
      case STATUS -> "status";
      case LATEST -> "the latest backup";
      case BACKUP_ID -> "backup " + value;
      case CHECKPOINT_ID -> "restore point " + value;
      case TIME -> "the newest restore point at or before " + java.time.Instant.ofEpochMilli(value);
    };
  }
}
