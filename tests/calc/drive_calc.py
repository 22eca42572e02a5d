"""Drives a running headless LibreOffice for the Calc extension's tests.

Run by a Python with LibreOffice's ``uno`` module (the system python3), never
imported by the tests: ``python3 drive_calc.py PIPE ACTION ...``. Prints one JSON
object.

* ``toolbar``: the Musterroll toolbar as the installed configuration holds it;
* ``click FILE MESSAGES [SHEET [CELL VALUE]]``: opens FILE, makes SHEET active
  (and types VALUE into CELL, unsaved), then clicks the toolbar's Refit button
  the way a click does (the frame's dispatcher, the button's own URL), waits
  for the message it shows (one more line in the MESSAGES file), and reports the
  open workbook's sheets and active sheet;
* ``click-new MESSAGES``: clicks Refit in a new, never-saved spreadsheet.
"""
import json
import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

TOOLBARS = "/org.openoffice.Office.Addons/AddonUI/OfficeToolBar"
TOOLBAR = "org.musterroll.calc.toolbar"


def context(pipe):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def toolbar(ctx):
    provider = ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
    access = provider.createInstanceWithArguments("com.sun.star.configuration.ConfigurationAccess",
                                                  (prop("nodepath", TOOLBARS),))
    if not access.hasByName(TOOLBAR):
        return {"toolbars": list(access.getElementNames()), "buttons": []}
    bar = access.getByName(TOOLBAR)
    buttons = []
    for name in bar.getElementNames():
        item = bar.getByName(name)
        buttons.append({"title": item.getByName("Title"), "url": item.getByName("URL"),
                        "context": item.getByName("Context"), "target": item.getByName("Target")})
    states = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess",
        (prop("nodepath", "/org.openoffice.Office.UI.CalcWindowState/UIElements/States"),))
    key = f"private:resource/toolbar/addon_{TOOLBAR}"
    title = states.getByName(key).getByName("UIName") if states.hasByName(key) else None
    return {"toolbars": list(access.getElementNames()), "buttons": buttons, "title": title}


def lines(path):
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as fh:
        return len(fh.read().splitlines())


def click(ctx, doc, messages):
    """What a click on the toolbar's Refit button does: its URL through the frame's dispatcher."""
    url_text = toolbar(ctx)["buttons"][0]["url"]
    before = lines(messages)
    url = uno.createUnoStruct("com.sun.star.util.URL")
    url.Complete = url_text
    parser = ctx.ServiceManager.createInstanceWithContext("com.sun.star.util.URLTransformer", ctx)
    _, url = parser.parseStrict(url)
    frame = doc.getCurrentController().getFrame()
    frame.activate()  # the window clicked in is the active one (a hidden window is not made so by itself)
    dispatch = frame.queryDispatch(url, "_self", 0)
    if dispatch is None:
        raise RuntimeError(f"the frame offers no dispatch for {url_text}")
    dispatch.dispatch(url, ())
    deadline = time.monotonic() + 600
    while lines(messages) == before:
        if time.monotonic() > deadline:
            raise RuntimeError("the button showed no message within 10 minutes")
        time.sleep(0.2)


def report(desktop, file_url):
    found = None
    components = desktop.getComponents().createEnumeration()
    open_urls = []
    while components.hasMoreElements():
        c = components.nextElement()
        if hasattr(c, "getURL"):
            open_urls.append(c.getURL())
            if c.getURL() == file_url:
                found = c
    if found is None:
        return {"open": open_urls}
    sheets = list(found.getSheets().getElementNames())
    active = found.getCurrentController().getActiveSheet().getName()
    modified = found.isModified()
    found.close(True)
    return {"open": open_urls, "sheets": sheets, "active": active, "modified": modified}


def main(argv):
    pipe, action = argv[1], argv[2]
    ctx = context(pipe)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    if action == "toolbar":
        return toolbar(ctx)
    if action == "click-new":
        doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, (prop("Hidden", True),))
        click(ctx, doc, argv[3])
        names = list(doc.getSheets().getElementNames())
        doc.close(True)
        return {"sheets": names}
    file_url = uno.systemPathToFileUrl(os.path.abspath(argv[3]))
    messages = argv[4]
    doc = desktop.loadComponentFromURL(file_url, "_blank", 0, (prop("Hidden", True),))
    if len(argv) > 5:
        sheet = doc.getSheets().getByName(argv[5])
        doc.getCurrentController().setActiveSheet(sheet)
        if len(argv) > 7:
            cell = sheet.getCellRangeByName(argv[6])
            cell.setString(argv[7])
    click(ctx, doc, messages)
    return report(desktop, file_url)


if __name__ == "__main__":
    # pyuno can crash while the interpreter tears down its bridge; the answer is printed by then,
    # so leave at once rather than let a crash after the work turn into a failed click.
    print(json.dumps(main(sys.argv)), flush=True)
    sys.stderr.flush()
    os._exit(0)
