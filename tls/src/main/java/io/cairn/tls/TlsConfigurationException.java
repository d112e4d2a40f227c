package io.cairn.tls;

import java.util.Optional;

/**
 * TLS material that cannot be used: a file missing, unreadable, too open, not PEM, without the
 * certificate or key it should hold, an encrypted key, a certificate outside its validity, a key
 * that does not belong to the certificate, an empty CA bundle.
 *
 * <p>Thrown at start, so that a listener never comes up with material it cannot serve; on a reload
 * the same problem is logged and the material in use is kept. The message reads "Expected
 * &lt;rule&gt;, but &lt;actual&gt; (&lt;key&gt; = &lt;file&gt;). &lt;what to do&gt;" and never
 * holds key material.
 */
public final class TlsConfigurationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient TlsFile file;

  TlsConfigurationException(TlsFile file, String message, Throwable cause) {
    super(message, cause);
    this.file = file;
  }

  TlsConfigurationException(TlsFile file, String message) {
    this(file, message, null);
  }

  /** The file the problem was found in; empty when it concerns the files' combination. */
  public Optional<TlsFile> file() {
    return Optional.ofNullable(file);
  }

  /** "Expected {expected}, but {actual} ({file}). {action}". */
  static TlsConfigurationException of(TlsFile file, String expected, String actual, String action) {
    return new TlsConfigurationException(file, format(expected, actual, file.toString(), action));
  }

  static String format(String expected, String actual, String context, String action) {
    return "Expected " + expected + ", but " + actual + " (" + context + "). " + action;
  }
}
