#!/usr/bin/env python3
"""doctest.py - run the commands of a Markdown document and compare their output.

Usage: doctest.py [--list] DOC.md

The document's fenced blocks are read in order:

* A block whose info string starts with ``console`` holds commands: each line
  beginning with ``$ `` is a command (a line ending in a backslash continues
  it), and the lines after it, up to the next command, are its standard
  output as shown.  Every command runs with ``bash -o pipefail -c`` in the
  document's own working directory and must exit with status 0, or with N
  when the block's info string says ``status=N`` (the block's last command).
  A command with no lines shown after it has its exit status checked only.
* A block whose info string has ``file=NAME`` (```` ```c file=walker.c ````)
  is written to NAME in the working directory when it is reached, so the
  commands after it compile or read exactly the text the reader sees.
* A ``console`` block whose info string says ``norun="REASON"`` is not run:
  installing hes, a cluster job, the benchmarks.  The reason is printed.
* A ``console`` block whose info string says ``requires=FEATURE[,FEATURE]``
  runs only where the build has each feature (``hes --version``: mujoco,
  siconos, gsl, ipopt, mpi; jsonschema, Debian's python3-jsonschema; and
  python, the module hes built and importable);
  elsewhere it is counted as not run, with the missing feature printed.
* A relative link of the document's text (``[...](tutorial.md)``,
  ``![...](images/x.png)``) must name a file that exists.
* Any other block is text; a line in it beginning with ``$ `` is an error
  (a command that would never run).

Shown output matches the actual output line by line, with runs of blanks
equal to one blank and trailing blanks ignored, except that:

* a line ``...`` matches any number of lines (also none), and a line ending
  in `` ...`` matches any line that begins with what precedes it;
* a number matches any number within one unit of its last shown digit
  (``0.6624`` matches 0.662364167632; ``1.2e-05`` matches 1.23e-05; an
  integer matches only itself), so a document shows as many digits as it
  claims, and a rounding of the same value on another processor, which may
  differ in the last digit, still matches;
* a number written ``~N`` (a timing, a count of steps) matches any number.

The working directory is a new temporary directory per document, with
``share``, ``problems``, ``lib`` and ``tests`` linked to the source tree and
``src`` to the build tree (and ``lib/.libs`` to the build tree's libraries
when the build tree is another directory), so a document speaks of
``src/hes``, ``lib/.libs`` and ``share/examples/...`` as a reader in the
source tree after ``./quickstart`` would; ``hes`` is also on the PATH (the
build's), then ``/usr/bin`` (Debian's python3), PYTHONPATH holds the
Python module just built (``src/python/.libs``), and OpenMPI's mpirun may start as root (a test run as root).  HES_TOP_SRCDIR and
HES_TOP_BUILDDIR (from the environment, default ``.``) say where the trees
are.  Exit status 0 when every command ran as shown, 1 otherwise, 2 on a
document that cannot be read.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 600

NUM = re.compile(r'(~?)([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?![\w.])')
FENCE = re.compile(r'^(\s*)(```+|~~~+)\s*(.*)$')


def parse_info(info):
    """The info string's first word and its key=value attributes."""
    try:
        words = shlex.split(info)
    except ValueError:
        words = info.split()
    lang = words[0] if words else ''
    attrs = {}
    for w in words[1:]:
        if '=' in w:
            k, v = w.split('=', 1)
            attrs[k] = v
        else:
            attrs[w] = ''
    return lang, attrs


def blocks(text, path):
    """(line number, info, lines) of every fenced block."""
    out = []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            ln = lines[i]
            body.append(ln[len(indent):] if ln.startswith(indent) else ln.lstrip())
            i += 1
        if i >= len(lines):
            raise ValueError('%s:%d: a fenced block is not closed' % (path, start))
        out.append((start, info, body))
        i += 1
    return out


def commands(body):
    """(command, shown output lines) of a console block."""
    cmds = []
    cur = None
    cont = False
    for ln in body:
        if cont:
            cur[0] += '\n' + ln
            cont = ln.endswith('\\')
            continue
        if ln.startswith('$ '):
            cur = [ln[2:], []]
            cmds.append(cur)
            cont = ln.endswith('\\')
        elif cur is None:
            if ln.strip():
                raise ValueError('output before the first command: %r' % ln)
        else:
            cur[1].append(ln)
    while cmds and cmds[-1][1] and not cmds[-1][1][-1].strip():
        cmds[-1][1].pop()
    return [(c, o) for c, o in cmds]


def norm(line):
    return ' '.join(line.split())


def number_ok(shown, actual):
    """Whether actual is within one unit of shown's last digit."""
    try:
        a = float(actual)
        s = float(shown)
    except ValueError:
        return False
    mant, _, exp = shown.lower().partition('e')
    decimals = len(mant.split('.', 1)[1]) if '.' in mant else 0
    if decimals == 0 and not exp and '.' not in mant:
        return a == s
    unit = 10.0 ** (int(exp or 0) - decimals)
    return abs(a - s) <= unit * (1 + 1e-9)


def line_ok(shown, actual):
    shown, actual = norm(shown), norm(actual)
    if shown.endswith(' ...') or shown == '...':
        return parts_ok(shown[:-3].rstrip(), actual, prefix=True)
    return parts_ok(shown, actual, prefix=False)


def split_numbers(s):
    """Text pieces and numbers (with the ~ flag), alternating."""
    parts = []
    pos = 0
    for m in NUM.finditer(s):
        parts.append(('t', s[pos:m.start()]))
        parts.append(('n', m.group(2), m.group(1) == '~'))
        pos = m.end()
    parts.append(('t', s[pos:]))
    return parts


def parts_ok(shown, actual, prefix):
    """Whether actual is shown (or, with prefix, begins as shown does): text
    equal, numbers to their shown digits."""
    if prefix and not shown:
        return True
    sp = split_numbers(shown)
    ap = split_numbers(actual)
    if len(ap) < len(sp) or (not prefix and len(ap) != len(sp)):
        return False
    for k, (x, y) in enumerate(zip(sp, ap)):
        if x[0] != y[0]:
            return False
        if x[0] == 'n':
            if not x[2] and not number_ok(x[1], y[1]):
                return False
        elif prefix and k == len(sp) - 1:
            if not y[1].startswith(x[1]):
                return False
        elif x[1] != y[1]:
            return False
    return True


def match(shown, actual):
    """Whether the actual lines match the shown ones (with ... lines)."""
    memo = {}

    def go(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(shown):
            r = j == len(actual)
        elif shown[i].strip() == '...':
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_ok(shown[i], actual[j]) and go(i + 1, j + 1)
        memo[key] = r
        return r

    return go(0, 0)


LINK = re.compile(r'\]\(([^)#\s]+)(?:#[^)]*)?\)')


def broken_links(text, doc):
    """The relative link targets of the text outside fenced blocks that
    name no file."""
    out = []
    inside = False
    for ln in text.split('\n'):
        if FENCE.match(ln):
            inside = not inside
            continue
        if inside:
            continue
        for m in LINK.finditer(ln):
            target = m.group(1)
            if re.match(r'^[a-z]+:', target):
                continue
            if not os.path.exists(os.path.join(os.path.dirname(doc), target)):
                out.append(target)
    return out


def features(env):
    """The features of the build's hes (hes --version) and of the system."""
    have = set()
    try:
        out = subprocess.run(['hes', '--version'], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=60).stdout.decode()
    except (OSError, subprocess.TimeoutExpired):
        out = ''
    for ln in out.split('\n'):
        if ln.startswith('features:'):
            have.update(ln.split(':', 1)[1].split())
        if 'MPI' in ln:
            have.add('mpi')
    try:
        if subprocess.run(['/usr/bin/python3', '-c', 'import hes'], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=60).returncode == 0:
            have.add('python')
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        if subprocess.run(['/usr/bin/python3', '-c', 'import jsonschema'],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=60).returncode == 0:
            have.add('jsonschema')
    except (OSError, subprocess.TimeoutExpired):
        pass
    return have


def setup(work, srcdir, builddir):
    for name in ('share', 'problems', 'tests'):
        os.symlink(os.path.join(srcdir, name), os.path.join(work, name))
    os.symlink(os.path.join(builddir, 'src'), os.path.join(work, 'src'))
    built = os.path.join(builddir, 'lib', '.libs')
    if os.path.realpath(srcdir) == os.path.realpath(builddir) or not os.path.isdir(built):
        os.symlink(os.path.join(srcdir, 'lib'), os.path.join(work, 'lib'))
        return
    # a build tree apart from the sources: lib holds the headers of the one
    # and the libraries (lib/.libs) of the other, as lib does in the source tree
    os.mkdir(os.path.join(work, 'lib'))
    for name in os.listdir(os.path.join(srcdir, 'lib')):
        if name != '.libs':
            os.symlink(os.path.join(srcdir, 'lib', name), os.path.join(work, 'lib', name))
    os.symlink(built, os.path.join(work, 'lib', '.libs'))


def main(argv):
    args = argv[1:]
    listing = False
    if args and args[0] == '--list':
        listing = True
        args = args[1:]
    if len(args) != 1:
        print('usage: doctest.py [--list] DOC.md', file=sys.stderr)
        return 2
    doc = args[0]
    try:
        with open(doc, encoding='utf-8') as fh:
            text = fh.read()
        bl = blocks(text, doc)
    except OSError as e:
        print('doctest: %s: %s' % (doc, e.strerror), file=sys.stderr)
        return 2
    except ValueError as e:
        print('doctest: %s' % e, file=sys.stderr)
        return 2
    srcdir = os.path.abspath(os.environ.get('HES_TOP_SRCDIR', '.'))
    builddir = os.path.abspath(os.environ.get('HES_TOP_BUILDDIR', '.'))
    work = tempfile.mkdtemp(prefix='hes-doctest.')
    env = dict(os.environ)
    # the build's hes first, then Debian's python3 (the one the quick start
    # gives numpy and the module's other packages); the module just built
    # is where `export PYTHONPATH=$PWD/src/python/.libs` puts it
    env['PATH'] = os.pathsep.join([os.path.join(builddir, 'src'), '/usr/bin',
                                   env.get('PATH', '')])
    env['PYTHONPATH'] = os.path.join(work, 'src', 'python', '.libs')
    env['LC_ALL'] = 'C'
    # mpirun (OpenMPI) refuses to start as root unless told; a test may run as root
    env.setdefault('OMPI_ALLOW_RUN_AS_ROOT', '1')
    env.setdefault('OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', '1')
    env.pop('HES_UNDER_VALGRIND', None)
    failed = ran = skipped = 0
    for target in broken_links(text, doc):
        print('%s: a link to %s, which does not exist' % (doc, target))
        failed += 1
    have = None
    try:
        setup(work, srcdir, builddir)
        for line, info, body in bl:
            lang, attrs = parse_info(info)
            if 'file' in attrs:
                name = attrs['file']
                if not name or '/' in name or name.startswith('.'):
                    print('%s:%d: file=%s must be a plain name' % (doc, line, name))
                    failed += 1
                    continue
                with open(os.path.join(work, name), 'w', encoding='utf-8') as fh:
                    fh.write('\n'.join(body) + '\n')
                continue
            if lang != 'console':
                if any(ln.startswith('$ ') for ln in body):
                    print('%s:%d: a command outside a console block (info string %r): '
                          'it would never run' % (doc, line, info))
                    failed += 1
                continue
            try:
                cmds = commands(body)
            except ValueError as e:
                print('%s:%d: %s' % (doc, line, e))
                failed += 1
                continue
            if not cmds:
                print('%s:%d: a console block without a command' % (doc, line))
                failed += 1
                continue
            if 'norun' in attrs:
                if not attrs['norun']:
                    print('%s:%d: norun needs a reason' % (doc, line))
                    failed += 1
                for c, _ in cmds:
                    skipped += 1
                    print('SKIP %s:%d: %s (%s)' % (doc, line, c.split('\n')[0],
                                                   attrs['norun']))
                continue
            if attrs.get('requires'):
                if have is None:
                    have = features(env)
                missing = [f for f in attrs['requires'].split(',') if f not in have]
                if missing:
                    for c, _ in cmds:
                        skipped += 1
                        print('SKIP %s:%d: %s (this build has no %s)'
                              % (doc, line, c.split('\n')[0], ', '.join(missing)))
                    continue
            try:
                want_last = int(attrs.get('status', '0'))
            except ValueError:
                print('%s:%d: status=%s is not an exit status' % (doc, line, attrs['status']))
                failed += 1
                continue
            for k, (c, shown) in enumerate(cmds):
                want = want_last if k == len(cmds) - 1 else 0
                if listing:
                    print('%s:%d: %s' % (doc, line, c))
                    continue
                ran += 1
                try:
                    p = subprocess.run(['bash', '-o', 'pipefail', '-c', c], cwd=work, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       timeout=TIMEOUT)
                except subprocess.TimeoutExpired:
                    print('FAIL %s:%d: %s\n  ran over %d s' % (doc, line, c, TIMEOUT))
                    failed += 1
                    continue
                out = p.stdout.decode('utf-8', 'replace').split('\n')
                if out and out[-1] == '':
                    out.pop()
                ok = p.returncode == want
                why = '' if ok else 'exit status %d, expected %d' % (p.returncode, want)
                if ok and shown and not match(shown, out):
                    ok = False
                    why = 'output differs'
                if ok:
                    print('ok   %s:%d: %s' % (doc, line, c.split('\n')[0]))
                    continue
                failed += 1
                print('FAIL %s:%d: %s\n  %s' % (doc, line, c, why))
                if shown:
                    print('  --- shown\n' + '\n'.join('  ' + s for s in shown))
                print('  --- actual\n' + '\n'.join('  ' + s for s in out[:60]))
                err = p.stderr.decode('utf-8', 'replace').strip()
                if err:
                    print('  --- stderr\n' + '\n'.join('  ' + s for s in err.split('\n')[:20]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not listing:
        print('%s: %d commands run, %d failed, %d not run' % (doc, ran, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
