package io.cairn.client;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The credentials a client presents on every call: the value of the {@code Authorization} header
 * (HTTP) and the {@code authorization} metadata entry (gRPC), {@code ApiKey <keyId>.<secret>} or
 * {@code Bearer <token>}. Checked before anything is sent (one line of printable ASCII, at most
 * {@value #MAX_CHARS} characters); never shown: not in {@link #toString()}, not in any message.
 */
final class Authorization {
  /** The longest value sent; longer ones are refused before sending. */
  static final int MAX_CHARS = 16 * 1024;

  static final String API_KEY = "ApiKey";
  static final String BEARER = "Bearer";

  private static final Metadata.Key<String> KEY =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final String value;

  private Authorization(String value) {
    this.value = value;
  }

  /**
   * The credentials of {@code value}, checked.
   *
   * @param setting how the caller gave it ({@code apiKey}), for messages
   * @param scheme put before {@code credential} unless it starts with it; null: taken as it is
   * @param credential the key or token (or, with a null scheme, the whole value)
   * @throws CairnClientException INVALID_ARGUMENT naming the setting, never the value
   */
  static Authorization of(String setting, String scheme, String credential) {
    if (credential == null || credential.isBlank()) {
      throw CairnClientException.invalid(
          "Expected "
              + setting
              + " to be a non-blank key or token, but it is "
              + blankOrNull(credential));
    }
    String trimmed = credential.strip();
    if (scheme == null) {
      return checked(setting, trimmed);
    }
    if (trimmed.regionMatches(true, 0, scheme + " ", 0, scheme.length() + 1)) {
      // already written with its scheme
      return checked(setting, scheme + trimmed.substring(scheme.length()));
    }
    return checked(setting, scheme + " " + trimmed);
  }

  /**
   * The credentials of at most one of the three settings.
   *
   * @throws CairnClientException INVALID_ARGUMENT when several are set or one is not valid
   */
  static Optional<Authorization> ofOne(String apiKey, String bearerToken, String credentials) {
    int set =
        (apiKey != null ? 1 : 0) + (bearerToken != null ? 1 : 0) + (credentials != null ? 1 : 0);
    if (set > 1) {
      throw CairnClientException.invalid(
          "Expected at most one of apiKey, bearerToken and credentials, but "
              + set
              + " are set. Present one");
    }
    if (apiKey != null) {
      return Optional.of(Authorization.of("apiKey", Authorization.API_KEY, apiKey));
    }
    if (bearerToken != null) {
      return Optional.of(Authorization.of("bearerToken", Authorization.BEARER, bearerToken));
    }
    if (credentials != null) {
      return Optional.of(Authorization.of("credentials", null, credentials));
    }
    return Optional.empty();
  }

  private static Authorization checked(String setting, String value) {
    if (value.length() > MAX_CHARS) {
      throw CairnClientException.invalid(
          "Expected "
              + setting
              + " of at most "
              + MAX_CHARS
              + " characters, but it has "
              + value.length()
              + " (the value is not shown: it is a secret)");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw CairnClientException.invalid(
            "Expected "
                + setting
                + " to be printable ASCII on one line, but character "
                + (i + 1)
                + " is not (the value is not shown: it is a secret). Check the file or variable"
                + " it came from for a line break or a stray character");
      }
    }
    return new Authorization(value);
  }

  private static String blankOrNull(String credential) {
    return credential == null ? "not set" : "blank";
  }

  /** The header value. */
  String value() {
    return value;
  }

  /** The scheme when it is one of Cairn's ({@code ApiKey}, {@code Bearer}), else "credentials". */
  String scheme() {
    int space = value.indexOf(' ');
    String first = space < 0 ? "" : value.substring(0, space).toLowerCase(Locale.ROOT);
    if (first.equals("apikey")) {
      return API_KEY;
    }
    return first.equals("bearer") ? BEARER : "credentials";
  }

  /** gRPC call credentials adding the {@code authorization} entry to every call. */
  CallCredentials callCredentials() {
    return new CallCredentials() {
      @Override
      public void applyRequestMetadata(
          RequestInfo requestInfo, Executor appExecutor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        headers.put(KEY, value);
        applier.apply(headers);
      }

      @Override
      public String toString() {
        return Authorization.this.toString();
      }
    };
  }

  @Override
  public String toString() {
    return scheme() + " (not shown)";
  }
}
