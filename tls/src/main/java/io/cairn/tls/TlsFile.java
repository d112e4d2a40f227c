package io.cairn.tls;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One PEM file of an endpoint's TLS material, with the configuration key that named it.
 *
 * <p>The key travels with the path so that every problem found in the file, at start or on a
 * reload, names the setting the operator has to change ({@code broker.tls.keyFile = /etc/...}).
 *
 * @param key the configuration key that named the file, as the operator wrote it
 * @param path the file
 */
public record TlsFile(String key, Path path) {

  public TlsFile {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(path, "path");
  }

  /** {@code key = path}, the way every message shows the file. */
  @Override
  public String toString() {
    return key + " = " + path;
  }
}
