// `networking`: TCP connections, each with the three timers of a 3.x
// socket (net/ipv4/tcp_timer.c): the retransmit timer, re-armed by every
// send; the delayed-ACK timer, armed when data arrives and mostly canceled
// because the reply carries the ACK; the keepalive timer, armed when the
// connection opens and canceled when it closes. Almost all of them are
// canceled or re-armed before they expire - the timeouts only catch the
// exceptions (a lost segment, a quiet peer).
//
// A connection: arrives (Poisson, `rate` per second) on a CPU, opens
// (timer_init x3, keepalive armed), then runs `packets` round trips on
// average (geometric). A round trip sends (retransmit timer re-armed to
// `rto`), receives the peer's data after half the round-trip time (the
// delayed-ACK timer armed, unless one is pending: that keeps its earlier
// deadline; canceled at once because the reply carries the ACK, except
// for the `delack_fire` share that fire), and gets the ACK after the
// round-trip time (log-normal, median `rtt`) - unless the segment is lost
// (`loss`): then the retransmit timer fires, re-arms itself with a doubled
// timeout and the ACK comes one round trip later. With `think` > 0 the
// connection pauses between round trips and stops the retransmit timer
// meanwhile. After the last ACK the connection closes (every pending
// timer deleted, the socket freed; its address comes back for a later
// connection).
//
// Linux itself leaves the delayed-ACK timer armed when an ACK goes out
// with data (inet_csk_clear_xmit_timer() stops it only under
// INET_CSK_CLEAR_TIMERS, which is not defined), and the timer fires to find
// nothing to do: on a real machine many more delayed-ACK timers expire
// (0-53% in the recordings of docs/results); delack_fire=1 models that.
#include <algorithm>

#include "sim/gen/kinds.h"
#include "sim/gen/slots.h"

namespace timersim::gen {

namespace {

// Named: sim/gen is compiled as one unit (Makefile, LIB_UNITS), and each
// kind has its own make() and steps.
namespace kind_networking {

enum step : std::uint8_t { arrive, send, receive, ack_piggybacked, acked };

struct connection {
	timer_h rto = 0, delack = 0, keepalive = 0;
	std::uint64_t round_trips_left = 0;
	std::uint64_t rtt_ns = 0;
	bool lost = false;	// the current segment is lost: the retransmit timer will fire
};

class networking final : public source {
public:
	networking(const workload_params &p, const source_context &ctx)
		: r_(ctx.seed), rate_(p.positive_rate("rate") * ctx.scale), packets_(p.number("packets")),
		  rtt_(p.duration_ns("rtt")), rtt_sigma_(p.number("rtt_sigma")), rto_(p.duration_ns("rto")),
		  loss_(p.fraction("loss")), delack_(p.duration_ns("delack")),
		  delack_fire_(p.fraction("delack_fire")), think_(p.duration_ns("think")),
		  keepalive_(p.duration_ns("keepalive")), cpu_(p.cpu("cpu"))
	{
		machine &m = ctx.m;
		fn_rto_ = m.function(p.function_name("fn_rto"));
		fn_delack_ = m.function(p.function_name("fn_delack"));
		fn_keepalive_ = m.function(p.function_name("fn_keepalive"));
		task_ = m.task(p.task_name("task"));
		// struct tcp_sock is about 2 KB; its three timers sit inside it.
		socks_ = m.pool(pool_base(ctx.index, 0), 0x800);
	}

	void begin(machine &m) override { m.at(next_arrival(r_, 0, rate_), this, arrive, task_); }

	void act(machine &m, std::uint64_t t) override
	{
		step s = static_cast<step>(conns_.step_of(t));
		if (s == arrive) {
			m.at(next_arrival(r_, m.now_ns(), rate_), this, arrive, task_);
			open(m);
			return;
		}
		std::uint32_t slot;
		if (!conns_.resolve(t, slot))
			return;		// the connection closed meanwhile
		connection &c = conns_[slot];
		switch (s) {
		case send:
			transmit(m, slot);
			break;
		case receive:
			// tcp_send_delayed_ack() keeps an earlier pending deadline.
			if (m.pending(c.delack))
				break;
			m.mod_timer(c.delack, m.timeout_for(delack_));
			if (!r_.chance(delack_fire_))
				m.at(m.now_ns() + 50'000, this, conns_.tag(slot, ack_piggybacked), task_);
			break;
		case ack_piggybacked:
			m.del_timer(c.delack);
			break;
		case acked:
			if (--c.round_trips_left == 0) {
				close(m, slot);
			} else if (think_) {
				m.del_timer(c.rto);	// nothing in flight
				m.at(m.now_ns() + static_cast<std::uint64_t>(r_.exponential(double(think_))), this,
				     conns_.tag(slot, send), task_);
			} else {
				transmit(m, slot);
			}
			break;
		default:
			break;
		}
	}

	void fired(machine &m, timer_h t) override
	{
		std::uint32_t slot = static_cast<std::uint32_t>(m.cookie(t) >> 2);
		connection &c = conns_[slot];
		if (t == c.rto) {
			// Retransmit with exponential backoff; the ACK of the
			// retransmitted segment comes one round trip later.
			m.mod_timer(c.rto, std::min<jiffies_t>(2 * m.timeout_for(rto_), machine::max_timeout));
			if (c.lost) {
				c.lost = false;
				m.at(m.now_ns() + c.rtt_ns, this, conns_.tag(slot, acked), task_);
			}
		} else if (t == c.keepalive) {
			m.mod_timer(c.keepalive, m.timeout_for(keepalive_));	// a probe, then wait again
		}
		// The delayed-ACK timer sends the ACK and stays idle.
	}

private:
	void open(machine &m)
	{
		std::uint32_t slot = conns_.alloc();
		connection &c = conns_[slot];
		unsigned cpu = pick_cpu(m, r_, cpu_);
		c.round_trips_left = r_.geometric(std::max(packets_, 1.0));
		c.rto = m.new_timer(this, socks_, fn_rto_, cpu, std::uint64_t{slot} << 2);
		c.delack = m.new_timer(this, socks_, fn_delack_, cpu, std::uint64_t{slot} << 2 | 1);
		c.keepalive = m.new_timer(this, socks_, fn_keepalive_, cpu, std::uint64_t{slot} << 2 | 2);
		m.mod_timer(c.keepalive, m.timeout_for(keepalive_));
		transmit(m, slot);
	}

	void transmit(machine &m, std::uint32_t slot)
	{
		connection &c = conns_[slot];
		m.mod_timer(c.rto, m.timeout_for(rto_));
		c.rtt_ns = std::max<std::uint64_t>(1000, static_cast<std::uint64_t>(
								  r_.lognormal(double(rtt_), rtt_sigma_)));
		c.lost = r_.chance(loss_);
		m.at(m.now_ns() + c.rtt_ns / 2, this, conns_.tag(slot, receive), task_);
		if (!c.lost)
			m.at(m.now_ns() + c.rtt_ns, this, conns_.tag(slot, acked), task_);
	}

	void close(machine &m, std::uint32_t slot)
	{
		connection &c = conns_[slot];
		for (timer_h t : {c.rto, c.delack, c.keepalive}) {
			m.del_timer(t);
			m.free_timer(t);
		}
		conns_.release(slot);
	}

	rng r_;
	double rate_, packets_;
	std::uint64_t rtt_;
	double rtt_sigma_;
	std::uint64_t rto_;
	double loss_;
	std::uint64_t delack_;
	double delack_fire_;
	std::uint64_t think_, keepalive_;
	int cpu_;
	std::uint32_t fn_rto_ = 0, fn_delack_ = 0, fn_keepalive_ = 0, task_ = 0, socks_ = 0;
	slot_table<connection> conns_;
};

std::unique_ptr<source> make(const workload_params &p, const source_context &ctx)
{
	return std::make_unique<networking>(p, ctx);
}

}  // namespace kind_networking

}  // namespace

const kind_info networking_kind = {
	"networking",
	"TCP connections: retransmit, delayed-ACK and keepalive timers, ~99% canceled or re-armed",
	{
		{"rate", "100", "connections opened per second"},
		{"packets", "20", "round trips per connection, on average (geometric)"},
		{"rtt", "20ms", "round-trip time, median (log-normal)"},
		{"rtt_sigma", "0.3", "log-normal shape of the round-trip time"},
		{"rto", "200ms", "retransmit timeout (TCP_RTO_MIN)"},
		{"loss", "0.01", "fraction of segments lost: their retransmit timer fires"},
		{"delack", "40ms", "delayed-ACK timeout (TCP_DELACK_MIN)"},
		{"delack_fire", "0.01", "fraction of delayed ACKs not piggybacked: the timer fires"},
		{"think", "0", "pause between round trips, mean (exponential); 0: back to back"},
		{"keepalive", "2h", "keepalive timeout (TCP_KEEPALIVE_TIME)"},
		{"cpu", "any", "the CPU of every connection, or any"},
		{"fn_rto", "tcp_write_timer", "callback name of the retransmit timer"},
		{"fn_delack", "tcp_delack_timer", "callback name of the delayed-ACK timer"},
		{"fn_keepalive", "tcp_keepalive_timer", "callback name of the keepalive timer"},
		{"task", "nginx", "task name in the trace"},
	},
	kind_networking::make,
};

}  // namespace timersim::gen
