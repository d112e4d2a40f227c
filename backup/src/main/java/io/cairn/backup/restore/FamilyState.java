package io.cairn.backup.restore;

import java.util.Objects;

/**
 * One digested column family of a partition's state: what a digest mismatch report shows, so an
 * operator can judge what differs.
 *
 * @param family the column family's name
 * @param entries its key/value pairs
 * @param digestHex its digest, 32 lowercase hex digits
 */
public record FamilyState(String family, long entries, String digestHex) {

  public FamilyState {
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(digestHex, "digestHex");
  }

  @Override
  public String toString() {
    return family + " " + entries + " entries, digest " + digestHex;
  }
}
