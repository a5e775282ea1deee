require "x"

# doc
module Outer
  class Inner < Base
    attr_reader :x

    def initialize(x)
      @x = x
    end

    def self.build
      new(1)
    end

    class << self
      def create; end
    end

    private

    def helper?
    end
  end

  def self.util; end
end

class Outer::Later
  def m; end
end

def top_level(a)
end
