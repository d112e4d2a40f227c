package io.cairn.backups3.layout;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.CheckpointPattern;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The skip-scan behind listing: for a wildcard, the smallest matching identifier at or after a
 * given one, in listing order (partition, checkpoint id, node). A listing starts S3's key scan at
 * that identifier's key and, when a page shows keys that do not match, jumps over them to the next
 * identifier that can — so a listing by partition, exact checkpoint id or checkpoint id prefix
 * reads the matching manifest keys and only a bounded number of others.
 *
 * <p>A checkpoint id prefix {@code d} (k digits) matches the ids of every length {@code L >= k} in
 * {@code [d * 10^(L-k), (d+1) * 10^(L-k) - 1]}; these ranges ascend with {@code L}.
 */
public final class WildcardSeek {

  private final BackupIdentifierWildcard wildcard;

  public WildcardSeek(BackupIdentifierWildcard wildcard) {
    this.wildcard = wildcard;
  }

  /** The smallest identifier {@code >= from} that the wildcard matches, if any. */
  public Optional<BackupIdentifier> atOrAfter(BackupIdentifier from) {
    long partition = from.partitionId();
    long checkpoint = from.checkpointId();
    long node = from.nodeId();
    // Each pass returns or moves to a later checkpoint or partition; three passes suffice.
    for (int pass = 0; pass < 4; pass++) {
      if (wildcard.partitionId().isPresent()) {
        int only = wildcard.partitionId().get();
        if (partition > only) {
          return Optional.empty();
        }
        if (partition < only) {
          partition = only;
          checkpoint = 1;
          node = 0;
        }
      }
      OptionalLong nextCheckpoint = checkpointAtOrAfter(wildcard.checkpointPattern(), checkpoint);
      if (nextCheckpoint.isEmpty()) {
        if (wildcard.partitionId().isPresent() || partition >= Integer.MAX_VALUE) {
          return Optional.empty();
        }
        partition++;
        checkpoint = 1;
        node = 0;
        continue;
      }
      if (nextCheckpoint.getAsLong() != checkpoint) {
        checkpoint = nextCheckpoint.getAsLong();
        node = 0;
      }
      if (wildcard.nodeId().isPresent()) {
        int only = wildcard.nodeId().get();
        if (node > only) {
          if (checkpoint == Long.MAX_VALUE) {
            if (wildcard.partitionId().isPresent() || partition >= Integer.MAX_VALUE) {
              return Optional.empty();
            }
            partition++;
            checkpoint = 1;
          } else {
            checkpoint++;
          }
          node = 0;
          continue;
        }
        node = only;
      }
      return Optional.of(new BackupIdentifier((int) node, (int) partition, checkpoint));
    }
    throw new IllegalStateException(
        "Expected a seek to settle within 4 passes, but it did not ("
            + wildcard
            + " from "
            + from
            + ")");
  }

  /** The identifier right after {@code id} in listing order, if any. */
  public static Optional<BackupIdentifier> successor(BackupIdentifier id) {
    if (id.nodeId() < Integer.MAX_VALUE) {
      return Optional.of(
          new BackupIdentifier(id.nodeId() + 1, id.partitionId(), id.checkpointId()));
    }
    if (id.checkpointId() < Long.MAX_VALUE) {
      return Optional.of(new BackupIdentifier(0, id.partitionId(), id.checkpointId() + 1));
    }
    if (id.partitionId() < Integer.MAX_VALUE) {
      return Optional.of(new BackupIdentifier(0, id.partitionId() + 1, 1));
    }
    return Optional.empty();
  }

  /** The smallest identifier of all. */
  public static BackupIdentifier first() {
    return new BackupIdentifier(0, 1, 1);
  }

  /** The smallest checkpoint id {@code >= from} that {@code pattern} matches. */
  static OptionalLong checkpointAtOrAfter(CheckpointPattern pattern, long from) {
    if (pattern.exactId().isPresent()) {
      long only = pattern.exactId().get();
      return from <= only ? OptionalLong.of(only) : OptionalLong.empty();
    }
    if (pattern.prefix().isEmpty()) {
      return OptionalLong.of(from);
    }
    String digits = pattern.prefix().get();
    long prefix = Long.parseLong(digits);
    int k = digits.length();
    int fromLength = Long.toString(from).length();
    for (int length = Math.max(k, fromLength); length <= S3ObjectLayout.LONG_DIGITS; length++) {
      long scale = pow10(length - k);
      long low;
      try {
        low = Math.multiplyExact(prefix, scale);
      } catch (ArithmeticException e) {
        return OptionalLong.empty();
      }
      long high;
      try {
        high = Math.addExact(Math.multiplyExact(prefix + 1, scale), -1);
      } catch (ArithmeticException e) {
        high = Long.MAX_VALUE;
      }
      if (from <= high) {
        return OptionalLong.of(Math.max(from, low));
      }
    }
    return OptionalLong.empty();
  }

  private static long pow10(int exponent) {
    long value = 1;
    for (int i = 0; i < exponent; i++) {
      value *= 10; // exponent <= 18: fits
    }
    return value;
  }
}
