# Loads a Homebrew formula with a stub Formula class (no Homebrew here) and prints, as JSON, what it
# declares on each platform, what `install` does, and (given a binary) whether its `test do` block passes.
#   ruby formula-stub.rb lore.rb [BIN_DIR]
require "json"
require "pathname"
require "tmpdir"
require "open3"

class Formula
  PLATFORMS = [%w[macos arm], %w[macos intel], %w[linux arm], %w[linux intel]].freeze
  class << self
    # Shared by Formula and the subclass the formula defines: globals, not class-level ivars.
    def platform = $platform
    def record(key, value) = ($declared[platform.join("/")] ||= {})[key] = value
    %i[desc homepage version license].each { |name| define_method(name) { |value = nil| value.nil? ? @meta&.[](name) : (@meta ||= {})[name] = value } }
    def url(value) = record("url", value)
    def sha256(value) = record("sha256", value)
    def depends_on(name) = (@deps ||= []) << name
    def deps = @deps || []
    def on_macos = (yield if platform[0] == "macos")
    def on_linux = (yield if platform[0] == "linux")
    def on_arm = (yield if platform[1] == "arm")
    def on_intel = (yield if platform[1] == "intel")
    def test(&block) = $test_block = block
  end

  # What `install` asked of Homebrew: bin.install's files and the completions it would generate.
  class Bin
    attr_reader :installed
    def initialize(dir) = (@dir = dir; @installed = [])
    def install(*files) = @installed.concat(files)
    def /(other) = Pathname(@dir) / other
    def to_s = @dir.to_s
  end

  attr_reader :bin, :completions, :testpath
  def initialize(bin_dir, testpath) = (@bin = Bin.new(bin_dir); @completions = {}; @testpath = testpath)
  def version = self.class.version

  def generate_completions_from_executable(executable, *args)
    %w[bash zsh fish].each do |shell|
      out, status = Open3.capture2(executable.to_s, *args.map(&:to_s), shell)
      @completions[shell] = status.success? ? out : nil
    end
  end

  def shell_output(cmd)
    out, status = Open3.capture2e(cmd, chdir: testpath.to_s)
    raise "`#{cmd}` failed (#{status.exitstatus}): #{out}" unless status.success?
    out
  end
  def system(*cmd) = Kernel.system(*cmd, chdir: testpath.to_s) || raise("#{cmd.join(" ")} failed")
  def assert_match(pattern, text) = (text.match?(pattern) || raise("#{pattern.inspect} not in #{text.inspect}"))
end

file, bin_dir = ARGV
$declared = {}
klass = nil
Formula::PLATFORMS.each do |platform|
  $platform = platform
  Object.send(:remove_const, :Lore) if Object.const_defined?(:Lore)
  load file
  klass = Object.const_get(:Lore)
end
result = { "class" => klass.name, "superclass" => klass.superclass.name, "version" => klass.version, "desc" => klass.desc, "deps" => klass.deps, "platforms" => $declared }
if bin_dir
  Dir.mktmpdir do |dir|
    ENV["HOME"] = dir
    ENV["LORE_HOME"] = File.join(dir, ".lore")
    formula = klass.new(bin_dir, Pathname(dir))
    formula.install
    result["installed"] = formula.bin.installed
    result["completions"] = formula.completions.transform_values { |text| text&.lines&.first&.strip }
    begin
      formula.instance_eval(&$test_block)
      result["test"] = "passed"
    rescue StandardError => e
      result["test"] = "failed: #{e.message}"
    end
  end
end
puts JSON.generate(result)
