package dev.racetriage.examples;

/** The synchronised counterpart of {@link TourSearch}: the bound is volatile, so every prune sees the latest one. */
public final class SynchronizedTourSearch {
  private final int[][] distance;
  private final int cities;
  volatile int bestLength = Integer.MAX_VALUE;

  public SynchronizedTourSearch(int[][] distance) {
    this.distance = distance;
    this.cities = distance.length;
  }

  public int solve() throws InterruptedException {
    Thread even = new Thread(() -> searchFirstHops(0), "tour-even");
    Thread odd = new Thread(() -> searchFirstHops(1), "tour-odd");
    even.start();
    odd.start();
    even.join();
    odd.join();
    return bestLength;
  }

  private void searchFirstHops(int parity) {
    boolean[] visited = new boolean[cities];
    visited[0] = true;
    int[] path = new int[cities];
    for (int first = 1; first < cities; first++) {
      if (first % 2 != parity) continue;
      visited[first] = true;
      path[1] = first;
      search(path, visited, 2, distance[0][first]);
      visited[first] = false;
    }
  }

  private void search(int[] path, boolean[] visited, int depth, int length) {
    if (length >= bestLength) {
      return;
    }
    int last = path[depth - 1];
    if (depth == cities) {
      offer(length + distance[last][0]);
      return;
    }
    for (int next = 1; next < cities; next++) {
      if (!visited[next]) {
        visited[next] = true;
        path[depth] = next;
        search(path, visited, depth + 1, length + distance[last][next]);
        visited[next] = false;
      }
    }
  }

  private synchronized void offer(int tourLength) {
    if (tourLength < bestLength) {
      bestLength = tourLength;
    }
  }
}
