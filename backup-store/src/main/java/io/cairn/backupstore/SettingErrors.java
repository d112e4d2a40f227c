package io.cairn.backupstore;

/**
 * The one wording of a bad store setting, for every store's configuration: {@code Expected <key> to
 * be <rule>, but <actual> (<store>, key <key>). <remedy>}.
 */
public final class SettingErrors {

  private SettingErrors() {}

  /**
   * @param store names the store, e.g. {@code backup store 's3'}
   * @param remedy what to do about it, or empty
   */
  public static IllegalArgumentException invalid(
      String store, String key, String rule, String actual, String remedy) {
    return new IllegalArgumentException(
        "Expected "
            + key
            + " to be "
            + rule
            + ", but "
            + actual
            + " ("
            + store
            + ", key "
            + key
            + ")"
            + (remedy.isEmpty() ? "" : ". " + remedy));
  }
}
