package io.tern.benchmark.scaling;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The machine's own limit for moving a snapshot: its files copied from one broker's data directory
 * into another's, durably, either over a TCP socket on loopback between two processes (what a move
 * does, less Raft's framing and checks) or as a plain file copy in one process (a lower bound).
 * {@link #main} is the receiving process.
 */
final class SnapshotCopy {
  private static final int BUFFER = 1 << 20;

  private SnapshotCopy() {}

  /** The bytes of every regular file under {@code dir}. */
  static long bytes(Path dir) throws IOException {
    long total = 0;
    for (Path file : files(dir)) {
      total += Files.size(file);
    }
    return total;
  }

  /** Copies {@code source}'s files into {@code target} (new) and forces each; the seconds taken. */
  static double plainCopy(Path source, Path target) throws IOException {
    long startNs = System.nanoTime();
    for (Path file : files(source)) {
      Path copy = target.resolve(source.relativize(file).toString());
      Files.createDirectories(copy.getParent());
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
          FileChannel out =
              FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
        while (in.read(buffer) >= 0) {
          buffer.flip();
          while (buffer.hasRemaining()) {
            out.write(buffer);
          }
          buffer.clear();
        }
        out.force(true);
      }
    }
    return (System.nanoTime() - startNs) / 1e9;
  }

  /**
   * Sends {@code source}'s files over a loopback socket to a receiving JVM (this class's {@link
   * #main}), which writes them under {@code target} and forces each; the seconds from the
   * connection until the receiver confirmed the last file (its JVM's start not counted).
   */
  static double socketCopy(Path source, Path target, Path log)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SnapshotCopy.class.getName());
    command.add(target.toString());
    Process receiver =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(receiver.getInputStream(), StandardCharsets.UTF_8));
      String portLine = out.readLine();
      if (portLine == null) {
        throw new IOException("the receiving process ended before it listened; see " + log);
      }
      List<Path> files = files(source);
      long startNs;
      try (Socket socket =
              new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(portLine));
          DataOutputStream to =
              new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), BUFFER));
          InputStream from = socket.getInputStream()) {
        startNs = System.nanoTime();
        to.writeInt(files.size());
        byte[] buffer = new byte[BUFFER];
        for (Path file : files) {
          to.writeUTF(source.relativize(file).toString());
          to.writeLong(Files.size(file));
          try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
              to.write(buffer, 0, n);
            }
          }
        }
        to.flush();
        if (from.read() != 1) {
          throw new IOException("the receiver did not confirm the copy; see " + log);
        }
      }
      double seconds = (System.nanoTime() - startNs) / 1e9;
      if (!receiver.waitFor(30, TimeUnit.SECONDS) || receiver.exitValue() != 0) {
        throw new IOException("the receiving process failed; see " + log);
      }
      return seconds;
    } finally {
      receiver.destroyForcibly();
    }
  }

  /** The receiver: prints its port, takes one connection's files into {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    Path target = Path.of(args[0]);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      System.out.println(server.getLocalPort());
      System.out.flush();
      try (Socket socket = server.accept();
          DataInputStream from =
              new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER))) {
        int count = from.readInt();
        byte[] buffer = new byte[BUFFER];
        for (int i = 0; i < count; i++) {
          Path file = target.resolve(from.readUTF());
          long left = from.readLong();
          Files.createDirectories(file.getParent());
          try (FileChannel out =
              FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (left > 0) {
              int n = from.read(buffer, 0, (int) Math.min(buffer.length, left));
              if (n < 0) {
                throw new IOException("the sender stopped " + left + " bytes short of " + file);
              }
              ByteBuffer wrapped = ByteBuffer.wrap(buffer, 0, n);
              while (wrapped.hasRemaining()) {
                out.write(wrapped);
              }
              left -= n;
            }
            out.force(true);
          }
        }
        socket.getOutputStream().write(1);
        socket.getOutputStream().flush();
      }
    }
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
