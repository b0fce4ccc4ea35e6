package io.tern.engine;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages form layers, each using only those below it: records, the partition state,
 * the log stream, the stream processor, a partition's wiring, the workflow engine, the commands a
 * gateway sends, the gateway, the brokers' cluster protocol, the broker. (The modules below,
 * journal and raft, cannot see the engine at all: Maven gives them no dependency on it.)
 */
class LayeringTest {
  private static final JavaClasses ENGINE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.tern.engine");

  @Test
  void eachLayerUsesOnlyTheLayersBelowIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("record")
        .definedBy("io.tern.engine.record..")
        .layer("state")
        .definedBy("io.tern.engine.state..")
        .layer("log")
        .definedBy("io.tern.engine.log..")
        .layer("processor")
        .definedBy("io.tern.engine.processor..")
        .layer("backup")
        .definedBy("io.tern.engine.backup..")
        .layer("partition")
        .definedBy("io.tern.engine.partition..")
        .layer("workflow")
        .definedBy("io.tern.engine.workflow..")
        .layer("command")
        .definedBy("io.tern.engine.command..")
        .layer("tls")
        .definedBy("io.tern.engine.tls..")
        .layer("gateway")
        .definedBy("io.tern.engine.gateway..")
        .layer("cluster")
        .definedBy("io.tern.engine.cluster..")
        .layer("broker")
        .definedBy("io.tern.engine.broker..")
        .whereLayer("broker")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("cluster")
        .mayOnlyBeAccessedByLayers("broker")
        .whereLayer("gateway")
        .mayOnlyBeAccessedByLayers("cluster", "broker")
        .whereLayer("tls")
        .mayOnlyBeAccessedByLayers("gateway", "cluster", "broker")
        .whereLayer("command")
        .mayOnlyBeAccessedByLayers("gateway", "cluster", "broker")
        .whereLayer("workflow")
        .mayOnlyBeAccessedByLayers("gateway", "cluster", "broker")
        .whereLayer("partition")
        .mayOnlyBeAccessedByLayers("broker")
        .whereLayer("backup")
        .mayOnlyBeAccessedByLayers("partition", "broker")
        .whereLayer("processor")
        .mayOnlyBeAccessedByLayers("backup", "partition", "workflow", "broker")
        .whereLayer("log")
        .mayOnlyBeAccessedByLayers("processor", "backup", "partition", "broker")
        .whereLayer("state")
        .mayOnlyBeAccessedByLayers("processor", "backup", "partition", "workflow", "broker")
        .check(ENGINE);
  }
}
