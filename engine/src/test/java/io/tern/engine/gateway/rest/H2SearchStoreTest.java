package io.tern.engine.gateway.rest;

import io.tern.engine.gateway.history.HistoryReader;
import java.util.UUID;

/** The searches over an in-memory H2 store (the single broker's default is an H2 file). */
class H2SearchStoreTest extends SearchStoreContract {
  @Override
  HistoryReader.Location database() {
    return new HistoryReader.Location("jdbc:h2:mem:" + UUID.randomUUID(), null, null);
  }

  @Override
  HistoryReader.Location emptyDatabase() {
    return new HistoryReader.Location("jdbc:h2:mem:" + UUID.randomUUID(), null, null);
  }
}
