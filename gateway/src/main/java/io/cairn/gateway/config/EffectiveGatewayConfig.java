package io.cairn.gateway.config;

import io.cairn.config.ConfigSetting;
import io.cairn.gateway.GatewayConfig;
import java.util.List;

/**
 * A gateway configuration read from a file and the environment.
 *
 * @param config the validated settings
 * @param settings every effective value with where it came from, in file order (logged once at
 *     start)
 */
public record EffectiveGatewayConfig(GatewayConfig config, List<ConfigSetting> settings) {
  public EffectiveGatewayConfig {
    settings = List.copyOf(settings);
  }

  /** One line per setting, for the start-up log. */
  public String describe() {
    StringBuilder text = new StringBuilder();
    for (ConfigSetting setting : settings) {
      text.append("\n  ").append(setting);
    }
    return text.toString();
  }
}
