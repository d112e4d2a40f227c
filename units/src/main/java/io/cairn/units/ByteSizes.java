package io.cairn.units;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one byte-size grammar of Cairn, read the same way by the configuration files, the backup
 * stores' keys and the command line: up to 15 digits, optional blanks, and an optional unit in
 * powers of 1024 (any case) — {@code B}; {@code K}, {@code KB}, {@code KiB}; {@code M}, {@code MB},
 * {@code MiB}; {@code G}, {@code GB}, {@code GiB}; {@code T}, {@code TB}, {@code TiB}. So {@code
 * 4096}, {@code 64KB}, {@code 128MB}, {@code 1GiB}, {@code 2TB}.
 *
 * <p>Ranges are the caller's: each says which sizes its field allows.
 */
public final class ByteSizes {

  /** Examples of the grammar, for messages. */
  public static final String EXAMPLES = "128MB, 64KB, 1GB or a number of bytes";

  private static final Pattern SIZE =
      Pattern.compile("(\\d{1,15})\\s*(|b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)");
  private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB"};

  private ByteSizes() {}

  /**
   * The number of bytes {@code text} names, or empty when it is not in the grammar or does not fit
   * in a {@code long}.
   */
  public static OptionalLong parse(String text) {
    if (text == null) {
      return OptionalLong.empty();
    }
    Matcher matcher = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      return OptionalLong.empty();
    }
    long amount = Long.parseLong(matcher.group(1));
    int shift =
        switch (matcher.group(2)) {
          case "k", "kb", "kib" -> 10;
          case "m", "mb", "mib" -> 20;
          case "g", "gb", "gib" -> 30;
          case "t", "tb", "tib" -> 40;
          default -> 0;
        };
    if (amount > (Long.MAX_VALUE >> shift)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(amount << shift);
  }

  /**
   * The largest exact unit, as configuration files write it: {@code 0}, {@code 128MB}, {@code 4KB},
   * {@code 1000B}.
   */
  public static String formatExact(long bytes) {
    if (bytes == 0) {
      return "0";
    }
    long value = bytes;
    int unit = 0;
    while (unit < UNITS.length - 1 && value % 1024 == 0) {
      value /= 1024;
      unit++;
    }
    return value + UNITS[unit];
  }
}
