package io.cairn.protocol;

/**
 * Thrown when bytes cannot be decoded into records (unknown version or code, truncated or malformed
 * input) or when a value cannot be encoded (a field outside its documented bounds, a buffer too
 * small).
 *
 * <p>The codecs of this module throw nothing else for bad input: never an index-out-of-bounds
 * error, never an allocation sized by an untrusted length.
 */
public class ProtocolException extends RuntimeException {
  public ProtocolException(String message) {
    super(message);
  }

  public ProtocolException(String message, Throwable cause) {
    super(message, cause);
  }
}
