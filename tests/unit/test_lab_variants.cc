// Private variants (`lab KIND --secret KEY --student ID`): the keyed hash
// is HMAC-SHA256 (checked against FIPS 180-2 and RFC 4231 vectors), the
// same key and student give byte-identical questions, other students or
// another key other questions, -c (and the questions at all) refuse
// without the key (exit 2), `lab check` grades a student's file with the
// key, and the public seeds print byte for byte what they printed before
// variants existed (tests/data/lab-public/, made by the binary before).
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sim/lab/variant_key.h"
#include "tests/support/cli.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;

namespace {

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::string hex(const std::array<std::uint8_t, 32> &d)
{
	static const char *digits = "0123456789abcdef";
	std::string out;
	for (std::uint8_t b : d)
		out += {digits[b >> 4], digits[b & 15]};
	return out;
}

std::string read_file(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> words(const std::string &s)
{
	std::istringstream in(s);
	std::vector<std::string> out;
	for (std::string w; in >> w;)
		out.push_back(w);
	return out;
}

// The question blocks of `lab` output, without the ARG lines.
std::string questions_of(const std::string &out) { return out.substr(out.find("\nQuestion 1")); }

}  // namespace

START_TEST(the_keyed_hash_is_hmac_sha256)
{
	using timersim::lab::hmac_sha256;
	using timersim::lab::sha256;
	// Named strings: ck_assert_str_eq reads its arguments more than once.
	const std::vector<std::pair<std::string, std::string>> vectors = {
		{hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
		 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{hex(hmac_sha256("Jefe", "what do ya want for nothing?")),
		 "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		// RFC 4231 case 6: a key longer than a block is hashed first.
		{hex(hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")),
		 "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
	};
	for (const auto &[got, want] : vectors)
		ck_assert_msg(got == want, "%s, expected %s", got.c_str(), want.c_str());
}
END_TEST

START_TEST(variants_are_the_students_own)
{
	const std::vector<std::string> kinds = {"place", "cascade", "fire", "next", "wrap", "v48", "cost"};
	for (const std::string &k : kinds) {
		cli_result a1 = run_timersim({"lab", k, "-s", "3", "-n", "4", "--student", "alice", "--secret", "k1"});
		cli_result a2 = run_timersim({"lab", k, "-s", "3", "-n", "4", "--student", "alice", "--secret", "k1"});
		cli_result b = run_timersim({"lab", k, "-s", "3", "-n", "4", "--student", "bob", "--secret", "k1"});
		cli_result other_key = run_timersim({"lab", k, "-s", "3", "-n", "4", "--student", "alice", "--secret", "k2"});
		cli_result pub = run_timersim({"lab", k, "-s", "3", "-n", "4"});
		ck_assert_msg(a1.status == 0, "%s: exit %d %s", k.c_str(), a1.status, a1.err.c_str());
		ck_assert_msg(a1.out == a2.out, "%s: the same key and id differ", k.c_str());
		ck_assert_msg(questions_of(a1.out) != questions_of(b.out), "%s: alice and bob get the same", k.c_str());
		ck_assert_msg(questions_of(a1.out) != questions_of(other_key.out), "%s: another key, the same", k.c_str());
		ck_assert_msg(questions_of(a1.out) != questions_of(pub.out), "%s: the variant is the public seed", k.c_str());
		ck_assert(!contains(a1.out, "k1"));	// the key is never echoed
	}
}
END_TEST

START_TEST(without_the_key_nothing)
{
	for (const std::vector<std::string> &args :
	     {std::vector<std::string>{"lab", "place", "-s", "3", "--student", "alice", "-c"},
	      std::vector<std::string>{"lab", "place", "-s", "3", "--student", "alice"},
	      std::vector<std::string>{"lab", "place", "-s", "3", "--student", "alice", "--json", "-"},
	      std::vector<std::string>{"lab", "place", "-s", "3", "--secret", "k1", "-c"}}) {
		cli_result r = run_timersim(args);
		ck_assert_msg(r.status == 2, "exit %d", r.status);
		ck_assert(r.out.empty());
		ck_assert_msg(contains(r.err, "--secret") || contains(r.err, "--student"), "%s", r.err.c_str());
	}
	cli_result r = run_timersim({"lab", "place", "-s", "3", "--student", "alice", "-c"});
	ck_assert_msg(contains(r.err, "-c"), "%s", r.err.c_str());
}
END_TEST

START_TEST(check_grades_a_variant_with_the_key)
{
	// The key holder's answers to alice's questions, as an answers file.
	cli_result c = run_timersim({"lab", "cascade", "-s", "10", "-n", "3", "--student", "alice", "--secret", "k1", "-c"});
	ck_assert_int_eq(c.status, 0);
	std::string answers, key;
	std::istringstream in(c.out);
	for (std::string line; std::getline(in, line);) {
		if (line.rfind("Question ", 0) == 0)
			key = line.substr(line.find(": ") + 2);
		else if (line.rfind("  Answer: ", 0) == 0)
			answers += key + " = " + line.substr(10) + "\n";
	}
	ck_assert_uint_eq(words(answers).size() > 0, 1);
	const std::string file = write_temp("alice.txt", answers);
	cli_result graded = run_timersim({"lab", "check", "--student", "alice", "--secret", "k1", file});
	ck_assert_msg(graded.status == 0, "exit %d: %s %s", graded.status, graded.out.c_str(), graded.err.c_str());
	ck_assert(contains(graded.out, "3 answers: 3 right, 0 wrong"));
	// Public grading (the public seeds' answers) or bob's: wrong.
	ck_assert_int_eq(run_timersim({"lab", "check", file}).status, 1);
	ck_assert_int_eq(run_timersim({"lab", "check", "--student", "bob", "--secret", "k1", file}).status, 1);
	// The key given, the student not (or the other way round): exit 2.
	ck_assert_int_eq(run_timersim({"lab", "check", "--student", "alice", file}).status, 2);
	ck_assert_int_eq(run_timersim({"lab", "check", "--secret", "k1", file}).status, 2);
}
END_TEST

START_TEST(public_seeds_are_unchanged)
{
	std::ifstream list("tests/data/lab-public/commands.txt");
	ck_assert_msg(list.good(), "tests/data/lab-public/commands.txt: run from the checkout");
	unsigned n = 0;
	for (std::string line; std::getline(list, line);) {
		const std::string no = line.substr(0, line.find(':'));
		std::vector<std::string> args = {"lab"};
		for (const std::string &w : words(line.substr(line.find(':') + 1)))
			args.push_back(w);
		cli_result r = run_timersim(args);
		ck_assert_int_eq(r.status, 0);
		ck_assert_msg(r.out == read_file("tests/data/lab-public/" + no + ".txt"), "%s: output changed", line.c_str());
		n++;
	}
	ck_assert_uint_eq(n, 8);
}
END_TEST

int main()
{
	Suite *s = suite_create("lab_variants");
	TCase *tc = tcase_create("variants");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_keyed_hash_is_hmac_sha256);
	tcase_add_test(tc, variants_are_the_students_own);
	tcase_add_test(tc, without_the_key_nothing);
	tcase_add_test(tc, check_grades_a_variant_with_the_key);
	tcase_add_test(tc, public_seeds_are_unchanged);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
