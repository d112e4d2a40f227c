package io.cairn.config;

import io.cairn.units.ByteSizes;
import io.cairn.units.Durations;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Turns one raw configuration value (a YAML scalar or an environment variable, always as text) into
 * a typed value, checking its range. {@link #rule()} is the allowed range in words, used in error
 * messages and in the README's key table.
 *
 * <p>Units, in the one grammar of {@link Durations} and {@link ByteSizes}:
 *
 * <ul>
 *   <li>durations: a whole number with a unit, {@code ms}, {@code s}, {@code m}, {@code h} or
 *       {@code d} ({@code "500ms"}, {@code "5m"}), or ISO-8601 ({@code "PT30S"}); a bare {@code 0}
 *       is zero;
 *   <li>sizes: a whole number of bytes, or with a unit {@code KB}, {@code MB}, {@code GB}, {@code
 *       TB} (powers of 1024; {@code KiB} etc. are accepted as the same), case-insensitive ({@code
 *       "128MB"}, {@code "64kb"});
 *   <li>booleans: {@code true} or {@code false}.
 * </ul>
 *
 * @param <T> the typed value
 */
public interface ValueParser<T> {

  /**
   * @throws ConfigValueException if the text does not parse or is out of range
   */
  T parse(String raw) throws ConfigValueException;

  /** The allowed values in words, e.g. {@code "an integer in [1, 32767]"}. */
  String rule();

  /** An integer in {@code [min, max]}. */
  static ValueParser<Integer> integer(int min, int max) {
    String rule = "an integer in [" + min + ", " + max + "]";
    return of(
        rule,
        raw -> {
          int value;
          try {
            value = Integer.parseInt(raw.trim());
          } catch (NumberFormatException e) {
            throw new ConfigValueException(rule, quote(raw));
          }
          if (value < min || value > max) {
            throw new ConfigValueException(rule, Integer.toString(value));
          }
          return value;
        });
  }

  /** One of {@code allowed}. */
  static ValueParser<Integer> integerOneOf(List<Integer> allowed) {
    String rule = "one of " + allowed;
    return of(
        rule,
        raw -> {
          try {
            int value = Integer.parseInt(raw.trim());
            if (allowed.contains(value)) {
              return value;
            }
          } catch (NumberFormatException e) {
            // fall through to the error below
          }
          throw new ConfigValueException(rule, quote(raw));
        });
  }

  /** {@code true} or {@code false}. */
  static ValueParser<Boolean> bool() {
    String rule = "true or false";
    return of(
        rule,
        raw ->
            switch (raw.trim().toLowerCase(Locale.ROOT)) {
              case "true" -> true;
              case "false" -> false;
              default -> throw new ConfigValueException(rule, quote(raw));
            });
  }

  /** A duration in {@code [min, max]}. */
  static ValueParser<Duration> duration(Duration min, Duration max) {
    String rule =
        "a duration in [" + Durations.formatExact(min) + ", " + Durations.formatExact(max) + "]";
    return of(
        rule,
        raw -> {
          Duration value = parseDuration(raw, rule);
          if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new ConfigValueException(rule, quote(raw));
          }
          return value;
        });
  }

  /** A size in bytes in {@code [min, max]}; with {@code zeroAllowed}, 0 too ("off"). */
  static ValueParser<Long> size(long min, long max, boolean zeroAllowed) {
    String rule =
        (zeroAllowed ? "0 (off) or " : "")
            + "a size in ["
            + ByteSizes.formatExact(min)
            + ", "
            + ByteSizes.formatExact(max)
            + "]";
    return of(
        rule,
        raw -> {
          long value = parseSize(raw, rule);
          if (zeroAllowed && value == 0) {
            return 0L;
          }
          if (value < min || value > max) {
            throw new ConfigValueException(rule, quote(raw));
          }
          return value;
        });
  }

  /** One of the given names (case-insensitive), mapped to its value. */
  static <E> ValueParser<E> oneOf(Map<String, E> byName) {
    String rule = "one of " + byName.keySet();
    return of(
        rule,
        raw -> {
          E value = byName.get(raw.trim().toLowerCase(Locale.ROOT));
          if (value == null) {
            throw new ConfigValueException(rule, quote(raw));
          }
          return value;
        });
  }

  /** Text matching {@code pattern} (described by {@code rule}). */
  static ValueParser<String> text(Pattern pattern, String rule) {
    return of(
        rule,
        raw -> {
          String value = raw.trim();
          if (!pattern.matcher(value).matches()) {
            throw new ConfigValueException(rule, quote(raw));
          }
          return value;
        });
  }

  /**
   * A path of this platform's file system (not blank, no NUL character), as text: whether it exists
   * is for the code that opens it to say.
   */
  static ValueParser<String> path(String rule) {
    return of(
        rule,
        raw -> {
          String value = raw.trim();
          if (value.isEmpty()) {
            throw new ConfigValueException(rule, quote(raw));
          }
          try {
            Path.of(value);
          } catch (InvalidPathException e) {
            throw new ConfigValueException(
                rule + "; this is not a path (" + e.getReason() + ")", quote(raw));
          }
          return value;
        });
  }

  /**
   * {@code host:port} with a port in [1, 65535]; an IPv6 host in brackets ({@code [::1]:26502}).
   */
  static ValueParser<HostAndPort> hostAndPort() {
    String rule = "host:port with a port in [1, 65535]";
    return of(
        rule,
        raw -> {
          HostAndPort address = HostAndPort.parse(raw.trim());
          if (address == null) {
            throw new ConfigValueException(rule, quote(raw));
          }
          return address;
        });
  }

  /**
   * This parser's value turned into another; a {@link IllegalArgumentException} from {@code
   * mapping} is reported as a value outside {@link #rule()}.
   */
  default <R> ValueParser<R> map(Function<? super T, ? extends R> mapping) {
    ValueParser<T> self = this;
    return of(
        rule(),
        raw -> {
          T value = self.parse(raw);
          try {
            return mapping.apply(value);
          } catch (IllegalArgumentException e) {
            throw new ConfigValueException(self.rule(), quote(raw));
          }
        });
  }

  /** A parser with the given rule; {@code parse} throws {@link ConfigValueException}. */
  static <T> ValueParser<T> of(String rule, Parse<T> parse) {
    return new ValueParser<>() {
      @Override
      public T parse(String raw) throws ConfigValueException {
        return parse.apply(raw);
      }

      @Override
      public String rule() {
        return rule;
      }
    };
  }

  /** Like {@link Function}, but may throw {@link ConfigValueException}. */
  @FunctionalInterface
  interface Parse<T> {
    T apply(String raw) throws ConfigValueException;
  }

  private static Duration parseDuration(String raw, String rule) throws ConfigValueException {
    Optional<Duration> parsed = Durations.parse(raw);
    if (parsed.isPresent()) {
      return parsed.get();
    }
    if (raw.trim().startsWith("P") || raw.trim().startsWith("p")) {
      throw new ConfigValueException(rule, quote(raw));
    }
    throw new ConfigValueException(rule + ", with a unit (ms, s, m, h, d)", quote(raw));
  }

  private static long parseSize(String raw, String rule) throws ConfigValueException {
    OptionalLong parsed = ByteSizes.parse(raw);
    if (parsed.isEmpty()) {
      throw new ConfigValueException(rule + ", such as 128MB or 64KB", quote(raw));
    }
    return parsed.getAsLong();
  }

  private static String quote(String raw) {
    return "'" + raw + "'";
  }
}
