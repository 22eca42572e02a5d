"""Installs or removes an extension through LibreOffice's own extension manager.

unopkg refuses to install an extension for the root user on Linux and macOS
(only for all users, into LibreOffice's own folder). There, ``musterroll calc
install`` runs this file with a Python that has LibreOffice's ``uno`` module: it
starts a headless LibreOffice on the profile, asks its extension manager
(``/singletons/com.sun.star.deployment.ExtensionManager``, which unopkg also
drives) to add or remove the extension for that user, and quits it again.

Usage: PYTHON office_install.py SOFFICE add|remove OXT-OR-ID [PROFILE-URL]
Prints one line: what was done, or "error: ..." (exit code 1).
"""
import os
import subprocess
import sys
import time
import uuid


def connect(soffice, profile):
    import uno
    from com.sun.star.connection import NoConnectException

    pipe = "musterroll_" + uuid.uuid4().hex
    args = [soffice, "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
            f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext"]
    if profile:
        args.append(f"-env:UserInstallation={profile}")
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + 120
    while True:
        try:
            return process, resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except NoConnectException:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"LibreOffice ({soffice}) did not start; is it running already? Quit it first")
            time.sleep(0.5)


def environment():
    """What unopkg --suppress-license answers: every question approved."""
    import uno
    import unohelper
    from com.sun.star.task import XInteractionHandler
    from com.sun.star.ucb import XCommandEnvironment

    class Approve(unohelper.Base, XInteractionHandler):
        def handle(self, request):
            for choice in request.getContinuations():
                if choice.queryInterface(uno.getTypeByName("com.sun.star.task.XInteractionApprove")):
                    choice.select()
                    return

    class Quiet(unohelper.Base, XCommandEnvironment):
        def getInteractionHandler(self):
            return Approve()

        def getProgressHandler(self):
            return None

    return Quiet()


def main(argv):
    soffice, action, what = argv[1:4]
    profile = argv[4] if len(argv) > 4 else ""
    import uno

    process, ctx = connect(soffice, profile)
    try:
        manager = ctx.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
        if action == "add":
            url = uno.systemPathToFileUrl(os.path.abspath(what))
            package = manager.addExtension(url, (), "user", manager.createAbortChannel(), environment())
            print(f"added {package.getIdentifier().Value}")
        elif action == "remove":
            manager.removeExtension(what, "", "user", manager.createAbortChannel(), environment())
            print(f"removed {what}")
        else:
            raise RuntimeError(f"unknown action {action!r}")
    finally:
        try:
            ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx).terminate()
        except Exception:
            pass
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
    return 0


def leave(code: int) -> None:
    """Exit without tearing down the UNO bridge: pyuno can crash there after the work is done."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    try:
        code = main(sys.argv)
    except Exception as exc:
        print(f"error: {getattr(exc, 'Message', '') or exc}")
        code = 1
    leave(code)
