// The contest's Java controller (github.com/prakol16/bs) timed over N games of its
// four reference players, the yardstick of BENCHMARKS.md's "BS against the Java
// controller". It lives in the controller's package to reach its private game loop
// and counts each player's wins, so the run is checked as well as timed.
package controller;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;

public class BsBench {
    public static void main(String[] args) throws Exception {
        int games = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        Controller controller = new Controller();
        Method play = Controller.class.getDeclaredMethod("playGame", boolean.class);
        play.setAccessible(true);
        Map<String, Integer> wins = new TreeMap<>();
        int unfinished = 0;
        long start = System.nanoTime();
        for (int i = 0; i < games; i++) {
            Object winner = play.invoke(controller, false);
            if (winner == null) {
                unfinished++;
            } else {
                wins.merge(winner.toString(), 1, Integer::sum);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof
                com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() / 1e9 : Double.NaN;
        System.out.printf("%d games in %.2f s (%.0f games/s); process CPU %.2f s%n",
                games, seconds, games / seconds, cpu);
        System.out.println("wins " + wins + (unfinished > 0 ? ", unfinished " + unfinished : ""));
    }
}
