// Java's Files.readAllBytes on each file named, for tst_runtime_traces (under strace).
import java.nio.file.Files;
import java.nio.file.Path;

public class ReadAll {
    public static void main(String[] args) throws Exception {
        long total = 0;
        for (String a : args)
            total += Files.readAllBytes(Path.of(a)).length;
        System.out.println(total);
    }
}
