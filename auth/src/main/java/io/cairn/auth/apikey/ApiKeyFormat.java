package io.cairn.auth.apikey;

import java.util.regex.Pattern;

/**
 * The shapes of an API key, written once for the credentials file, the generator and the check of a
 * presented key.
 *
 * <pre>
 * presented key:       &lt;keyId&gt;.&lt;secret&gt;           (Authorization: ApiKey &lt;keyId&gt;.&lt;secret&gt;)
 * credentials line:    &lt;keyId&gt;:&lt;role&gt;[,&lt;role&gt;]:sha256:&lt;64 hex digits&gt;
 * keyId:               1 to 64 of A-Z a-z 0-9 . _ -
 * secret:              32 to 256 of A-Z a-z 0-9 _ - (generated: 32 random bytes, base64url, 43 chars)
 * </pre>
 *
 * A key id may hold dots, a secret never does: a presented key splits at its last dot.
 */
public final class ApiKeyFormat {

  /** The scheme of the {@code Authorization} header (and gRPC {@code authorization} metadata). */
  public static final String SCHEME = "ApiKey";

  /** What a key id is, for messages. */
  public static final String KEY_ID_RULE = "1 to 64 of A-Z a-z 0-9 . _ -";

  /** One line of the credentials file, for messages. */
  public static final String LINE_RULE = "<keyId>:<role>[,<role>]:sha256:<64 hex digits>";

  /** Random bytes in a generated secret: 256 bits, beyond any guessing. */
  public static final int SECRET_BYTES = 32;

  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{32,256}");

  private ApiKeyFormat() {}

  public static boolean isKeyId(String value) {
    return KEY_ID.matcher(value).matches();
  }

  static boolean isSecret(String value) {
    return SECRET.matcher(value).matches();
  }
}
