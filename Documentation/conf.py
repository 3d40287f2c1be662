# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration for the xrpcrdma documentation. `make htmldocs`
# builds it into build/docs/html with warnings as errors.
#
# The netlink reference is not written by hand: it is generated from
# Documentation/netlink/specs/xrpcrdma.yaml with the kernel's
# ynl-gen-rst.py (extracted by `make kernel-src`) into
# build/docs/gen/, never into the source tree, and netlink.rst includes it.

import os
import subprocess
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_top = os.path.dirname(_here)

project = 'xrpcrdma'
copyright = 'The xrpcrdma developers'
author = 'The xrpcrdma developers'
with open(os.path.join(_top, 'VERSION'), encoding='utf-8') as f:
    release = f.read().strip()
version = release

root_doc = 'index'
master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = ['netlink/specs']
extensions = []
highlight_language = 'none'
html_theme = 'alabaster'
html_title = 'xrpcrdma ' + release
html_static_path = []
html_show_sourcelink = False

_spec = os.path.join(_here, 'netlink', 'specs', 'xrpcrdma.yaml')
# netlink.rst includes ../build/docs/gen/xrpcrdma-netlink.rst: keep in step.
_gen_dir = os.path.join(_top, 'build', 'docs', 'gen')
_ynl_rst = os.path.join(os.environ.get('XR_KSRC',
                                       os.path.join(_top, 'build', 'linux-src')),
                        'tools', 'net', 'ynl', 'ynl-gen-rst.py')


def _gen_netlink_rst():
    """Regenerate the netlink reference when the spec or generator is newer."""
    out = os.path.join(_gen_dir, 'xrpcrdma-netlink.rst')
    if not os.path.exists(_ynl_rst):
        sys.exit('conf.py: %s is missing: run `make kernel-src` first'
                 % _ynl_rst)
    if (os.path.exists(out) and
            os.path.getmtime(out) >= os.path.getmtime(_spec) and
            os.path.getmtime(out) >= os.path.getmtime(_ynl_rst)):
        return
    os.makedirs(_gen_dir, exist_ok=True)
    subprocess.run([sys.executable, _ynl_rst, '-i', _spec, '-o', out + '.tmp'],
                   check=True)
    os.replace(out + '.tmp', out)


_gen_netlink_rst()


def _gen_tunables_rst():
    """The admin guide's table of tunables, from the spec's config set.

    Ranges and defaults are the spec's config-NAME-min/-max/-default
    constants, the text the attribute's doc: the spec is the one source.
    """
    import yaml
    with open(_spec, encoding='utf-8') as f:
        spec = yaml.safe_load(f)
    consts = {d['name']: d['value'] for d in spec['definitions']
              if d['type'] == 'const'}
    attrs = next(a for a in spec['attribute-sets']
                 if a['name'] == 'config')['attributes']
    rows = ['.. list-table::', '   :header-rows: 1',
            '   :widths: 18 16 10 56', '',
            '   * - name', '     - range', '     - default', '     - meaning']
    for a in attrs:
        name = a['name']
        if 'config-%s-default' % name not in consts:
            continue
        rng = '%d-%d' % (consts['config-%s-min' % name],
                         consts['config-%s-max' % name])
        rows += ['   * - ``%s``' % name, '     - %s' % rng,
                 '     - %d' % consts['config-%s-default' % name],
                 '     - %s' % ' '.join(a['doc'].split())]
    text = '\n'.join(rows) + '\n'
    os.makedirs(_gen_dir, exist_ok=True)
    out = os.path.join(_gen_dir, 'xrpcrdma-tunables.rst')
    if os.path.exists(out):
        with open(out, encoding='utf-8') as f:
            if f.read() == text:
                return
    with open(out + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(out + '.tmp', out)


_gen_tunables_rst()
