package io.cairn.cli;

import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The credentials the command line presents to a gateway, from the first of: {@code --api-key},
 * {@code --token} or {@code --credentials-file} (at most one of them), else {@code $CAIRN_API_KEY}
 * or {@code $CAIRN_TOKEN} (at most one of them). A file holds one line: a key ({@code
 * <keyId>.<secret>}), a JWT, or either with its scheme ({@code ApiKey ...}, {@code Bearer ...}); it
 * keeps the secret out of {@code ps} and the shell's history. Nothing here shows a secret.
 */
final class CliCredentials {
  /** The environment variable holding an API key. */
  static final String API_KEY_ENV = "CAIRN_API_KEY";

  /** The environment variable holding a bearer token. */
  static final String TOKEN_ENV = "CAIRN_TOKEN";

  /** The largest credentials file read. */
  static final int MAX_FILE_BYTES = 16 * 1024;

  /** A compact JWT: three base64url parts, the header a JSON object ({@code eyJ}). */
  private static final Pattern JWT =
      Pattern.compile("eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");

  private CliCredentials() {}

  /**
   * What to present.
   *
   * @param authorization the {@code authorization} value: {@code ApiKey ...} or {@code Bearer ...}
   * @param source where it came from, for messages: {@code --api-key}, {@code $CAIRN_TOKEN}, ...
   */
  record Credential(String authorization, String source) {
    @Override
    public String toString() {
      return "Credential{from " + source + ", not shown}";
    }
  }

  /** A setting the operator must correct; the message names it and never its value. */
  static final class InvalidCredentialsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidCredentialsException(String message) {
      super(message);
    }
  }

  /**
   * The credentials to present, if any.
   *
   * @param file relative to {@code workingDirectory}
   * @param warnings told about a credentials file others may read
   * @throws InvalidCredentialsException for conflicting settings or a file that cannot be used
   */
  static Optional<Credential> resolve(
      String apiKey,
      String token,
      Path file,
      Map<String, String> env,
      Path workingDirectory,
      java.util.function.Consumer<String> warnings) {
    List<String> given = new ArrayList<>();
    if (apiKey != null) {
      given.add("--api-key");
    }
    if (token != null) {
      given.add("--token");
    }
    if (file != null) {
      given.add("--credentials-file");
    }
    if (given.size() > 1) {
      throw new InvalidCredentialsException(
          "Expected at most one of --api-key, --token and --credentials-file, but got "
              + String.join(" and ", given));
    }
    if (apiKey != null) {
      return Optional.of(
          new Credential(withScheme("ApiKey", notBlank("--api-key", apiKey)), "--api-key"));
    }
    if (token != null) {
      return Optional.of(
          new Credential(withScheme("Bearer", notBlank("--token", token)), "--token"));
    }
    if (file != null) {
      Path path = workingDirectory.resolve(file);
      return Optional.of(
          new Credential(read(path, warnings), "--credentials-file " + path.normalize()));
    }
    String envKey = nonBlank(env.get(API_KEY_ENV));
    String envToken = nonBlank(env.get(TOKEN_ENV));
    if (envKey != null && envToken != null) {
      throw new InvalidCredentialsException(
          "Expected at most one of $"
              + API_KEY_ENV
              + " and $"
              + TOKEN_ENV
              + ", but both are set. Unset one, or choose with --api-key, --token or"
              + " --credentials-file");
    }
    if (envKey != null) {
      return Optional.of(new Credential(withScheme("ApiKey", envKey), "$" + API_KEY_ENV));
    }
    if (envToken != null) {
      return Optional.of(new Credential(withScheme("Bearer", envToken), "$" + TOKEN_ENV));
    }
    return Optional.empty();
  }

  /**
   * The message of a failed call, with what to do when access was refused: which credentials the
   * gateway did not take, or how to give some.
   *
   * @param source where the credentials came from; empty when none were given
   */
  static String explain(CairnClientException failure, Optional<String> source) {
    if (failure.code() == ErrorCode.UNAUTHENTICATED) {
      return source
              .map(
                  from ->
                      "the gateway did not accept the credentials given by "
                          + from
                          + " (a mistyped or revoked key, an expired token?). ")
              .orElse(
                  "the gateway requires credentials, and none were given. Pass --api-key,"
                      + " --token or --credentials-file, or set $"
                      + API_KEY_ENV
                      + " or $"
                      + TOKEN_ENV
                      + ". ")
          + "The gateway said: "
          + failure.getMessage();
    }
    if (failure.code() == ErrorCode.PERMISSION_DENIED) {
      return failure.getMessage()
          + source.map(from -> " (credentials given by " + from + ")").orElse("");
    }
    return failure.getMessage();
  }

  /** The one line of a credentials file, with its scheme. */
  private static String read(Path path, java.util.function.Consumer<String> warnings) {
    String text;
    try {
      if (!Files.isRegularFile(path)) {
        throw new InvalidCredentialsException(
            "Expected --credentials-file to name a readable file, but " + path + " is none");
      }
      long size = Files.size(path);
      if (size > MAX_FILE_BYTES) {
        throw new InvalidCredentialsException(
            "Expected --credentials-file "
                + path
                + " to hold one API key or token of at most "
                + MAX_FILE_BYTES
                + " bytes, but it has "
                + size);
      }
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(path)))
              .toString();
      warnIfOpen(path, warnings);
    } catch (CharacterCodingException e) {
      throw new InvalidCredentialsException(
          "Expected --credentials-file " + path + " to be UTF-8 text, but it is not");
    } catch (IOException e) {
      throw new InvalidCredentialsException(
          "Expected to read --credentials-file " + path + ", but " + e.getMessage());
    }
    List<String> lines = text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    if (lines.size() != 1) {
      throw new InvalidCredentialsException(
          "Expected --credentials-file "
              + path
              + " to hold one line (an API key <keyId>.<secret> or a token, optionally after"
              + " 'ApiKey ' or 'Bearer '), but it has "
              + lines.size()
              + " non-blank lines (they are not shown: they may hold secrets)");
    }
    String line = lines.get(0);
    String lower = line.toLowerCase(Locale.ROOT);
    if (lower.startsWith("apikey ") || lower.startsWith("bearer ")) {
      return line;
    }
    return withScheme(JWT.matcher(line).matches() ? "Bearer" : "ApiKey", line);
  }

  private static void warnIfOpen(Path path, java.util.function.Consumer<String> warnings)
      throws IOException {
    Set<PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(path);
    } catch (UnsupportedOperationException e) {
      return; // no POSIX permissions here
    }
    Set<PosixFilePermission> others =
        Set.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE);
    if (permissions.stream().anyMatch(others::contains)) {
      warnings.accept(
          "Warning: credentials file "
              + path
              + " is open to others ("
              + PosixFilePermissions.toString(permissions)
              + "): whoever reads it can call the gateway as you. chmod 600 it");
    }
  }

  /** {@code scheme value}, unless the value has the scheme already. */
  private static String withScheme(String scheme, String value) {
    String stripped = value.strip();
    if (stripped.regionMatches(true, 0, scheme + " ", 0, scheme.length() + 1)) {
      return stripped;
    }
    return scheme + " " + stripped;
  }

  private static String notBlank(String option, String value) {
    if (value.isBlank()) {
      throw new InvalidCredentialsException(
          "Expected "
              + option
              + (option.equals("--api-key") ? " to be a key <keyId>.<secret>" : " to be a token")
              + ", but it is blank");
    }
    return value;
  }

  private static String nonBlank(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
