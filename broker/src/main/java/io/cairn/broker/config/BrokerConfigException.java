package io.cairn.broker.config;

import io.cairn.config.ConfigException;
import java.util.List;

/**
 * The broker's configuration cannot be used. Lists every problem found, each naming the key, the
 * bad value, the allowed range and where the value came from.
 */
public final class BrokerConfigException extends ConfigException {

  private static final long serialVersionUID = 1L;

  public BrokerConfigException(String source, List<String> violations) {
    super("broker", source, violations);
  }
}
