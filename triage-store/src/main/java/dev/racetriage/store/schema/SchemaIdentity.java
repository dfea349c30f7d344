package dev.racetriage.store.schema;

/** How a racetriage database is recognised: {@code PRAGMA application_id} holds this constant ("Rtrg"). */
public final class SchemaIdentity {
  public static final int APPLICATION_ID = 0x52747267;

  private SchemaIdentity() {}
}
