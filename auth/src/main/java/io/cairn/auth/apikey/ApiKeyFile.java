package io.cairn.auth.apikey;

import io.cairn.auth.Role;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The credentials file as read once: its keys by id and the stamp it had when read.
 *
 * <p>Format: one key a line, {@code <keyId>:<role>[,<role>]:sha256:<64 hex digits>}; {@code #}
 * starts a comment (no field can hold one); blank lines are skipped; UTF-8, at most {@value
 * #MAX_BYTES} bytes. Each key id once. A file without keys is valid: no key authenticates.
 *
 * <p>The file must be readable and writable by its owner only ({@code chmod 600}): who can write it
 * can make themselves an administrator, and who can read it learns which key ids exist. Where the
 * filesystem has no POSIX permissions the check is skipped.
 */
public final class ApiKeyFile {

  /** The largest file read: thousands of keys; beyond, it is not a credentials file. */
  public static final int MAX_BYTES = 1024 * 1024;

  private static final Set<PosixFilePermission> OPEN_TO_OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE);

  /** A role name worth echoing in a message: short letters, never a secret or a hex hash. */
  private static final Pattern SHOWABLE_ROLE = Pattern.compile("[A-Za-z_-]{1,20}");

  private final Path path;
  private final String source;
  private final Map<String, ApiKeyEntry> entries;
  private final FileStamp stamp;

  private ApiKeyFile(Path path, String source, Map<String, ApiKeyEntry> entries, FileStamp stamp) {
    this.path = path;
    this.source = source;
    this.entries = Collections.unmodifiableMap(entries);
    this.stamp = stamp;
  }

  /**
   * Reads and checks the file.
   *
   * @param settingKey the key that names the file ({@code security.auth.apiKeysFile}), for messages
   * @throws InvalidApiKeyFileException when the file is missing, unreadable, open to group or
   *     others, too large or not UTF-8, or naming every line not in the format
   */
  public static ApiKeyFile read(Path path, String settingKey) {
    String source = "API key file " + path + " (" + settingKey + ")";
    try {
      checkPermissions(path, source);
      if (Files.exists(path) && !Files.isRegularFile(path)) {
        // A FIFO or a device would be read without end.
        throw new InvalidApiKeyFileException(
            "Expected "
                + source
                + " to be a regular file, but it is not (a directory, a FIFO or a device). Point "
                + settingKey
                + " at the credentials file");
      }
      FileStamp stamp = FileStamp.of(path);
      byte[] bytes;
      try (InputStream in = Files.newInputStream(path)) {
        bytes = in.readNBytes(MAX_BYTES + 1); // no more than the limit is ever held
      }
      if (bytes.length > MAX_BYTES) {
        throw new InvalidApiKeyFileException(
            "Expected "
                + source
                + " to be at most "
                + MAX_BYTES
                + " bytes, but it has more. Point "
                + settingKey
                + " at the credentials file");
      }
      return new ApiKeyFile(path, source, parse(decode(bytes, source), source), stamp);
    } catch (NoSuchFileException e) {
      throw new InvalidApiKeyFileException(
          "Expected "
              + source
              + " to exist, but it does not. Create it (one key a line, see 'cairn security"
              + " create-api-key') or correct "
              + settingKey);
    } catch (IOException e) {
      throw new InvalidApiKeyFileException(
          "Expected to read " + source + ", but " + e + ". Check the path and its permissions");
    }
  }

  private static void checkPermissions(Path path, String source) throws IOException {
    Set<PosixFilePermission> open = EnumSet.copyOf(OPEN_TO_OTHERS);
    try {
      open.retainAll(Files.getPosixFilePermissions(path));
    } catch (UnsupportedOperationException notPosix) {
      return; // no POSIX permissions on this filesystem: nothing to check
    }
    if (!open.isEmpty()) {
      throw new InvalidApiKeyFileException(
          "Expected "
              + source
              + " to be readable and writable by its owner only, but it is open to "
              + open
              + ": whoever can write it can make themselves an administrator. Run: chmod 600 "
              + path);
    }
  }

  private static String decode(byte[] bytes, String source) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidApiKeyFileException(
          "Expected " + source + " to be UTF-8 text, but it is not. Write it as UTF-8");
    }
  }

  private static Map<String, ApiKeyEntry> parse(String text, String source) {
    Map<String, ApiKeyEntry> entries = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      int number = i + 1;
      parseLine(lines[i], number, entries)
          .ifPresent(problem -> problems.add("line " + number + ": " + problem));
    }
    if (!problems.isEmpty()) {
      throw new InvalidApiKeyFileException(
          "Expected every line of "
              + source
              + " to be "
              + ApiKeyFormat.LINE_RULE
              + ", blank or a # comment, but "
              + (problems.size() == 1 ? "one is not" : problems.size() + " are not")
              + " (no line's text is shown: it may hold a secret): "
              + String.join("; ", problems)
              + ". Correct or remove "
              + (problems.size() == 1 ? "it" : "them"),
          problems);
    }
    return entries;
  }

  /** Adds the line's key to {@code entries}, or returns what is wrong with it. */
  private static Optional<String> parseLine(
      String raw, int number, Map<String, ApiKeyEntry> entries) {
    int comment = raw.indexOf('#');
    String line = (comment >= 0 ? raw.substring(0, comment) : raw).strip();
    if (line.isEmpty()) {
      return Optional.empty();
    }
    String[] fields = line.split(":", 3);
    if (fields.length < 3) {
      return Optional.of(
          "Expected "
              + ApiKeyFormat.LINE_RULE
              + ", but it has "
              + fields.length
              + (fields.length == 1 ? " field" : " fields"));
    }
    String keyId = fields[0].strip();
    if (!ApiKeyFormat.isKeyId(keyId)) {
      return Optional.of(
          "Expected a key id of " + ApiKeyFormat.KEY_ID_RULE + " first, but it is not one");
    }
    Set<Role> roles = EnumSet.noneOf(Role.class);
    for (String name : fields[1].split(",", -1)) {
      Optional<Role> role = Role.fromId(name);
      if (role.isEmpty()) {
        String shown = name.strip();
        return Optional.of(
            "Expected roles from "
                + Role.ids()
                + " separated by ',' second, but "
                + (shown.isEmpty()
                    ? "one is empty"
                    : SHOWABLE_ROLE.matcher(shown).matches()
                        ? "'" + shown + "' is not one"
                        : "one is not a role"));
      }
      roles.add(role.get());
    }
    Optional<ApiKeyHash> hash = ApiKeyHash.parse(fields[2].strip());
    if (hash.isEmpty()) {
      return Optional.of(
          "Expected the hash of the secret as "
              + ApiKeyHash.SCHEME
              + ":<64 hex digits> third, but it is not one");
    }
    ApiKeyEntry earlier = entries.get(keyId);
    if (earlier != null) {
      return Optional.of(
          "Expected each key id once, but this line's is also on line " + earlier.line());
    }
    entries.put(keyId, new ApiKeyEntry(keyId, roles, hash.get(), number));
    return Optional.empty();
  }

  /** The key with id {@code keyId}, or empty. */
  public Optional<ApiKeyEntry> entry(String keyId) {
    return Optional.ofNullable(entries.get(keyId));
  }

  /** The key ids, in the order of the file. */
  public Set<String> keyIds() {
    return entries.keySet();
  }

  public Path path() {
    return path;
  }

  FileStamp stamp() {
    return stamp;
  }

  /** The file and its key ids; never a hash. */
  @Override
  public String toString() {
    return "ApiKeyFile{" + source + ", keyIds=" + entries.keySet() + "}";
  }
}
