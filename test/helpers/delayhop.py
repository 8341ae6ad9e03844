#!/usr/bin/env python3
# A hop that holds every packet for a fixed time each way: netem's delay in user space, for a
# kernel without sch_netem. Two TUN devices, one in this process's network namespace (the
# client's) and one in the namespace named by /run/netns/<ns> (the server's); each packet read
# from one is written to the other `delay_ms` later. Prints "ready" once both exist; exits when
# its stdin closes (the test that started it is gone). Used by test/helpers/netns-delay.ts.
import ctypes, fcntl, heapq, os, select, struct, sys, time

TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000
CLONE_NEWNET = 0x40000000

def open_tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TUN | IFF_NO_PI))
    return fd

def main():
    client_if, ns, server_if, delay_ms = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    a = open_tun(client_if)
    libc = ctypes.CDLL(None, use_errno=True)
    nsfd = os.open(f'/run/netns/{ns}', os.O_RDONLY)
    if libc.setns(nsfd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), 'setns')
    b = open_tun(server_if)
    print('ready', flush=True)
    other = {a: b, b: a}
    delay = delay_ms / 1000.0
    queue, seq = [], 0
    while True:
        timeout = max(0.0, queue[0][0] - time.monotonic()) if queue else None
        ready, _, _ = select.select([a, b, sys.stdin], [], [], timeout)
        if sys.stdin in ready and not sys.stdin.buffer.read1(4096):
            return
        now = time.monotonic()
        for fd in (a, b):
            if fd not in ready:
                continue
            for _ in range(256):
                try:
                    pkt = os.read(fd, 65536)
                except BlockingIOError:
                    break
                seq += 1
                heapq.heappush(queue, (now + delay, seq, other[fd], pkt))
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, out, pkt = heapq.heappop(queue)
            try:
                os.write(out, pkt)
            except OSError:
                pass  # a full queue drops the packet, as a link would

main()
