package io.cairn.backups3;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * S3 Object Lock for every object the store writes: each is written with a retention of {@code
 * period} in {@code mode}, so that until it expires no one — a bug in Cairn, or whoever holds the
 * store's credentials — can delete or overwrite that version of it. The bucket must have been
 * created with object lock (which also turns versioning on); the store checks that when it opens.
 * On such a bucket a delete leaves a delete marker and the locked versions stay; retention does not
 * delete a backup before its objects' retention ends (docs/s3-backup-store.md, "Immutable
 * backups").
 *
 * @param mode {@link Mode#GOVERNANCE}: users with {@code s3:BypassGovernanceRetention} may still
 *     remove a version; {@link Mode#COMPLIANCE}: no one may until the period ends
 * @param period how long each object is locked from the moment it is written
 */
public record ObjectLock(Mode mode, Duration period) {

  /** S3's retention modes. */
  public enum Mode {
    GOVERNANCE,
    COMPLIANCE;

    /** The configuration's spelling: lower case. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code governance} or {@code compliance}, in any case. */
    public static Mode fromConfigName(String value) {
      for (Mode mode : values()) {
        if (mode.name().equalsIgnoreCase(value.trim())) {
          return mode;
        }
      }
      throw new IllegalArgumentException(
          "Expected governance or compliance, but got '" + value + "'");
    }
  }

  /** The shortest period: S3 rounds retention dates to the second. */
  public static final Duration PERIOD_MIN = Duration.ofSeconds(1);

  /** The longest period: S3's own limit for a bucket's default retention (100 years). */
  public static final Duration PERIOD_MAX = Duration.ofDays(36_500);

  public ObjectLock {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(period, "period");
    if (period.compareTo(PERIOD_MIN) < 0 || period.compareTo(PERIOD_MAX) > 0) {
      throw new IllegalArgumentException(
          "Expected an object lock period in ["
              + PERIOD_MIN
              + ", "
              + PERIOD_MAX
              + "], but was "
              + period);
    }
  }

  @Override
  public String toString() {
    return mode.configName() + " for " + period;
  }
}
