import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestRepo, lines, tempDir } from "../helpers/git-repo.ts";
import { ask, isolateHome } from "../helpers/lore.ts";
import { gitText } from "../../src/git/run.ts";
import { inBackground, questionBegins, questionEnds } from "../../src/git/priority.ts";
import { closeAll, indexFor } from "../../src/index/indexes.ts";
import { Warmup } from "../../src/daemon/background.ts";

let r: TestRepo;
beforeAll(() => {
  isolateHome();
  r = new TestRepo();
  for (let i = 0; i < 12; i++) r.write(`f${i}.txt`, lines(`one ${i}`, `two ${i}`));
  r.commit("files");
  for (let i = 0; i < 12; i++) r.write(`f${i}.txt`, lines(`one ${i}`, `TWO ${i}`, "three"));
  r.commit("more");
});
afterAll(() => {
  closeAll();
  r.cleanup();
});

test("background work runs git at the lowest CPU and I/O priority; a question's git does not", async () => {
  // A stand-in git that prints the priority it was started with.
  const dir = tempDir("fake-git-");
  // Fields of /proc/self/stat: 6 the session, 19 the nice value; then the I/O class, then the autogroup's nice where Linux has autogroups.
  writeFileSync(
    join(dir, "git"),
    `#!/bin/sh\nprintf '%s %s ' "$(cut -d' ' -f6 /proc/$$/stat)" "$(cut -d' ' -f19 /proc/$$/stat)"\nprintf '%s ' "$(ionice -p $$ 2>/dev/null || echo none)"\ncat /proc/$$/autogroup 2>/dev/null || echo no-autogroup\n`,
  );
  chmodSync(join(dir, "git"), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path}`;
  try {
    const mine = (await gitText(["version"], { cwd: r.dir })).trim().split(" ");
    const background = (await inBackground(() => gitText(["version"], { cwd: r.dir }))).trim().split(" ");
    const session = readFileSync("/proc/self/stat", "utf8").split(" ")[5];
    expect(background[1]).toBe("19");
    expect(background[2]).toMatch(/^(idle|none)$/);
    expect(mine[1]).not.toBe("19");
    // Each git leads a session of its own (a timeout ends its whole group).
    expect(mine[0]).not.toBe(session);
    expect(background[0]).not.toBe(session);
    if (existsSync("/proc/self/autogroup")) {
      // With autogroups, sessions share the CPU as equals: background git nices its session's group too.
      expect(background.slice(-2)).toEqual(["nice", "19"]);
      expect(mine.slice(-2)).toEqual(["nice", "0"]);
    }
  } finally {
    process.env.PATH = path;
  }
});

test("the background pass waits while a question is answered, and goes on when it ends", async () => {
  const ix = await indexFor(r.dir);
  await ix.refresh();
  const logged: string[] = [];
  const warmup = new Warmup(ix, 2, (m) => logged.push(m));
  questionBegins();
  let ended = false;
  try {
    warmup.kick();
    await Bun.sleep(1500);
    expect(ix.store.blame.blamedInTree()).toBe(0);
    expect(warmup.active).toBe(true);
  } finally {
    questionEnds();
    ended = true;
  }
  expect(ended).toBe(true);
  while (warmup.active) await Bun.sleep(20);
  expect(ix.store.blame.blamedInTree()).toBe(12);
});

/**
 * A folder with a stand-in git that sleeps `seconds` when started at the pass's priority (nice 19),
 * for every command or only for `only` (a git subcommand), then runs the real git.
 */
function slowBackgroundGit(seconds: number, only?: string): string {
  const real = Bun.which("git")!;
  const dir = tempDir("slow-git-");
  const nap = `[ "$(cut -d' ' -f19 /proc/$$/stat)" = "19" ] && sleep ${seconds}`;
  writeFileSync(join(dir, "git"), `#!/bin/sh\n${only ? `case " $* " in *" ${only} "*) ${nap};; esac` : nap}\nexec ${real} "$@"\n`);
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

test("a question asked while background git is slow is answered at once: it never queues behind the pass", async () => {
  const dir = slowBackgroundGit(3);
  const q = new TestRepo();
  for (let i = 0; i < 4; i++) q.write(`q${i}.txt`, lines(`one ${i}`, `two ${i}`));
  q.commit("files");
  const ix = await indexFor(q.dir);
  await ix.refresh();
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path}`;
  const warmup = new Warmup(ix, 1, () => {});
  try {
    warmup.kick();
    await Bun.sleep(300);
    expect(warmup.active).toBe(true);
    const started = performance.now();
    const b = await ask("blame", q.dir, { path: "q2.txt" });
    const ms = performance.now() - started;
    expect(b.hunks.length).toBe(1);
    // The pass's first git sleeps for 3 s; the question's own git does not wait for it.
    expect(ms).toBeLessThan(1500);
    expect(warmup.active).toBe(true);
  } finally {
    warmup.stop();
    process.env.PATH = path;
    while (warmup.active) await Bun.sleep(50);
    q.cleanup();
  }
}, 20_000);

test("a question about the file the pass is blaming blames it at its own priority, and both get the same answer", async () => {
  // Slow only for the pass's git blame: the commit-graph and line counts before it run at full speed.
  const dir = slowBackgroundGit(3, "blame");
  const q = new TestRepo();
  // p0.txt changed twice (git blames it); the others made by one commit (blamed without git).
  q.write("p0.txt", lines("one", "line"));
  q.commit("one");
  for (let i = 0; i < 3; i++) q.write(`p${i}.txt`, lines(`two ${i}`, `line ${i}`));
  q.commit("two");
  const ix = await indexFor(q.dir);
  await ix.refresh();
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path}`;
  const warmup = new Warmup(ix, 1, () => {});
  try {
    warmup.kick();
    // The pass blames p0.txt first (the most changed); wait until its git is asleep.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && !/^sleep 3$/m.test(Bun.spawnSync(["ps", "-eo", "args"]).stdout.toString())) await Bun.sleep(50);
    const started = performance.now();
    const b = await ask("blame", q.dir, { path: "p0.txt" });
    expect(performance.now() - started).toBeLessThan(1500);
    while (warmup.active) await Bun.sleep(50);
    // The pass's blame, landing second, kept the question's: the same rows answer again.
    expect(await ask("blame", q.dir, { path: "p0.txt" })).toEqual(b);
  } finally {
    warmup.stop();
    process.env.PATH = path;
    while (warmup.active) await Bun.sleep(50);
    q.cleanup();
  }
}, 20_000);

test("passes of several repositories run one at a time", async () => {
  // Each pass blames one file through a stand-in git that takes 1 s at the pass's priority.
  const dir = slowBackgroundGit(1, "blame");
  const repos = [new TestRepo(), new TestRepo()];
  for (const q of repos) {
    q.write("a.txt", lines("one"));
    q.commit("one");
    q.write("a.txt", lines("one", "two"));
    q.commit("two");
  }
  const path = process.env.PATH;
  process.env.PATH = `${dir}:${path}`;
  const ended: number[] = [];
  const warmups: Warmup[] = [];
  try {
    for (const q of repos) {
      const ix = await indexFor(q.dir);
      await ix.refresh();
      warmups.push(new Warmup(ix, 2, () => {}));
    }
    const started = performance.now();
    for (const w of warmups) w.kick();
    await Promise.all(
      warmups.map(async (w) => {
        while (w.active) await Bun.sleep(20);
        ended.push(performance.now() - started);
      }),
    );
    // Together they would both end after about 1 s; one after the other, the second a second later.
    ended.sort((a, b) => a - b);
    expect(ended[1]! - ended[0]!).toBeGreaterThan(800);
  } finally {
    process.env.PATH = path;
    for (const w of warmups) w.stop();
    for (const q of repos) q.cleanup();
  }
}, 20_000);
