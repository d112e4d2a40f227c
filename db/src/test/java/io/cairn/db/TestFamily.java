package io.cairn.db;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;

/**
 * The families tests open: three digested, one excluded (like checkpoint bookkeeping). The constant
 * names are the family names.
 */
enum TestFamily implements ColumnFamilyDefinition {
  ACCOUNTS(true),
  TRANSFERS(true),
  CREDITS(true),
  CHECKPOINTS(false);

  static final List<TestFamily> ALL = List.of(values());

  private final boolean includedInDigest;

  TestFamily(boolean includedInDigest) {
    this.includedInDigest = includedInDigest;
  }

  @Override
  public boolean includedInDigest() {
    return includedInDigest;
  }

  static CairnDb open(Path directory) {
    return open(directory, DbConfig.defaults());
  }

  static CairnDb open(Path directory, DbConfig config) {
    return CairnDb.open(directory, config, ALL, new SimpleMeterRegistry());
  }
}
